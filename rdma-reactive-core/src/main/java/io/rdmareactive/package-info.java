/**
 * The public API: {@link io.rdmareactive.RdmaServer} and {@link io.rdmareactive.RdmaClient} (immutable builders in
 * the style of reactor-netty), {@link io.rdmareactive.Connection} with its {@link io.rdmareactive.Inbound}
 * ({@code Flux} of received messages, decoded or as zero-copy views) and {@link io.rdmareactive.Outbound}
 * ({@code send(Publisher, Codec)}), {@link io.rdmareactive.DisposableServer}, and the exceptions a subscriber can get.
 * Remote memory: {@link io.rdmareactive.LocalRegion} (memory registered on one connection for its peer, with
 * {@link io.rdmareactive.RegionAccess} rights), its {@link io.rdmareactive.RegionDescriptor}, and
 * {@link io.rdmareactive.RemoteRegion} (one-sided reads, writes and atomics on the peer's memory, each a {@code Mono},
 * or many as {@link io.rdmareactive.RemoteOperation}s with back-pressure).
 *
 * <p>A subscriber's {@code request(n)} is the only thing that lets bytes be consumed, and it reaches the remote
 * sender as credit: a slow subscriber slows the remote publisher, memory stays bounded, nothing is dropped. Nothing
 * of the providers, the protocol or the driver shows through this package.
 *
 * <p>Package-private beside the API: the connection and its stream slots ({@code DefaultConnection},
 * {@code StreamChannel}), the one-object publishers of a send, a receive and a stream's opening, and the call streams
 * that carry every request/response call of a side ({@code OutgoingCalls} with its {@code RequestResponse.Call}s,
 * {@code ServedCalls} with its {@code ServedCall}s, both a {@code CallStreamEnd}); a one-sided operation's
 * subscription ({@code OneSidedCall}) and the memory under regions ({@code RegionMemory}).
 */
package io.rdmareactive;
