import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import {
  createTransport,
  type EIP1193RequestFn,
  type FallbackTransport,
  fallback,
  type HttpTransport,
  type Transport,
} from "viem";
import { type KeyHiddenHttpOptions, keyHiddenHttpTransport } from "./keyHiddenHttpTransport";

type FallbackValue = NonNullable<ReturnType<FallbackTransport<readonly HttpTransport[]>>["value"]>;
type ResponseReport = Parameters<Parameters<FallbackValue["onResponse"]>[0]>[0];

/**
 * viem's fallback transport over every RPC URL, each one a keyHiddenHttpTransport (answers capped
 * at 1 MB, a provider's key kept out of errors, each call bounded by `timeoutMs`). A call starts
 * at the URL that answered last (the first one given, until another answers in its place) and
 * goes on down the list from there, wrapping round: a URL that hangs costs its timeout once, not
 * on every call of a paid request (a paid check makes a dozen), which viem's fallback, starting
 * each call at the head of its list, would. A call a URL does not answer (down, hung past its
 * timeout, rate-limited, garbage) is asked of the next at once; an answer, a revert included,
 * ends the call where it came from. A failed call is retried `retryCount` times over the whole
 * list, not at each URL: a rate-limited provider (Retry-After) does not hold every call back
 * while the next one answers. viem's own `rank` option is not used: its ping loop keeps timers
 * that hold a process open (the CLI, `presend facilitator` draining) and pings every provider.
 * The Base RPC of the payment side (its bookkeeping reads, the in-process facilitator,
 * `presend facilitator`). Its value reports each URL's attempt (`onResponse`), as viem's does.
 * @example createPublicClient({ transport: keyHiddenFallbackTransport(rpcUrls, { timeoutMs: 3_000, retryCount: 0 }) })
 */
export function keyHiddenFallbackTransport(
  rpcUrls: readonly string[],
  options: KeyHiddenHttpOptions,
): Transport<"fallback", FallbackValue> {
  if (rpcUrls.length === 0) throw new ConfigurationError("no RPC URL given for the payment chain");
  // Which URL each built transport stands for, so a report says which one answered.
  const urlIndexOf = new WeakMap<object, number>();
  const eachUrl = rpcUrls.map((rpcUrl, index): HttpTransport => {
    const http = keyHiddenHttpTransport(rpcUrl, { ...options, retryCount: 0 });
    return ((parameters) => {
      const built = http(parameters);
      urlIndexOf.set(built, index);
      return built;
    }) as HttpTransport;
  });
  // One fallback per URL to start from, each the whole list from there round to before it.
  const rotations = eachUrl.map((_, start) =>
    fallback([...eachUrl.slice(start), ...eachUrl.slice(0, start)], {
      retryCount: options.retryCount,
    }),
  );
  // Shared by every client built from this transport: what one call learnt, the next one uses.
  let answering = 0;
  return (parameters) => {
    const built = rotations.map((rotation) => rotation(parameters));
    let listener: (report: ResponseReport) => void = () => {};
    for (const rotation of built) {
      rotation.value?.onResponse((report) => {
        const index = urlIndexOf.get(report.transport);
        if (report.status === "success" && index !== undefined) answering = index;
        listener(report);
      });
    }
    const from = (): (typeof built)[number] => built[answering] ?? (built[0] as (typeof built)[0]);
    return createTransport(
      {
        key: "fallback",
        name: "Fallback",
        type: "fallback",
        // The rotation retries; retrying here too would multiply the attempts.
        retryCount: 0,
        request: ((args, requestOptions) =>
          from().request(args, requestOptions)) as EIP1193RequestFn,
      },
      {
        onResponse: (fn: (report: ResponseReport) => void) => {
          listener = fn;
        },
        transports: built[0]?.value?.transports ?? [],
      } as FallbackValue,
    );
  };
}
