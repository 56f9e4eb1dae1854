/**
 * The bridge between the protocol's streams and Reactor: {@link io.rdmareactive.internal.reactive.InboundStream}
 * (a {@code Flux} that decodes messages in place and turns its subscriber's demand into REQUEST_N credit, never more
 * than a prefetch window ahead of delivery) and {@link io.rdmareactive.internal.reactive.OutboundStream} (a
 * subscriber that asks its publisher only for what the peer requested, encodes each element straight into the send
 * ring, and holds at most a small batch back while the ring is full).
 *
 * <p>Threads follow reactor-netty's contract. An inbound stream drains on its connection's event loop: frames are
 * handed in place to the subscriber while it has demand, inline in the loop's duty cycle; a {@code request(n)} from
 * another thread hands the stream's own preallocated drain to the loop's bounded queue. An outbound stream drains on
 * whichever thread signals it first (the thread that emits, or the loop when credit returns), serialised by a
 * work-in-progress counter, inside the connection's {@link io.rdmareactive.internal.reactive.RingGuard} so that the
 * loop never unmaps a ring a sender is writing. This package sees the protocol, the driver's loops and counters, the
 * codecs and Reactor; it never sees the SPI or a provider, and the public API above it supplies the exception types.
 */
package io.rdmareactive.internal.reactive;
