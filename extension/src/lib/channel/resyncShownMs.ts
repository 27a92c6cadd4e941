/**
 * How long the card and the popup say a channel was re-synced with presend's server (its own
 * file: the card reads it and must not load the channel access, which holds the signing code).
 */
export const resyncShownMs = 10 * 60_000;
