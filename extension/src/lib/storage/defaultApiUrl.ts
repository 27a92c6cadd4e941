/** The API URL the build was made for (WXT_PRESEND_API_URL), used until the user sets one. */
export const defaultApiUrl: string = import.meta.env.WXT_PRESEND_API_URL ?? "http://127.0.0.1:8402";
