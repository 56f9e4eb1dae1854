/**
 * The public API: {@link io.rdmareactive.RdmaServer} and {@link io.rdmareactive.RdmaClient} (immutable builders in
 * the style of reactor-netty), {@link io.rdmareactive.Connection} with its {@link io.rdmareactive.Inbound}
 * ({@code Flux} of received messages, decoded or as zero-copy views) and {@link io.rdmareactive.Outbound}
 * ({@code send(Publisher, Codec)}), {@link io.rdmareactive.DisposableServer}, and the exceptions a subscriber can get.
 *
 * <p>A subscriber's {@code request(n)} is the only thing that lets bytes be consumed, and it reaches the remote
 * sender as credit: a slow subscriber slows the remote publisher, memory stays bounded, nothing is dropped. Nothing
 * of the providers, the protocol or the driver shows through this package.
 */
package io.rdmareactive;
