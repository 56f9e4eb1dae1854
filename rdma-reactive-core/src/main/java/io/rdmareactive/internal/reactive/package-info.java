/**
 * The bridge between the protocol's streams and Reactor: {@link io.rdmareactive.internal.reactive.InboundStream}
 * (a {@code Flux} that decodes messages in place and turns its subscriber's demand into REQUEST_N credit, never more
 * than a prefetch window ahead of delivery) and {@link io.rdmareactive.internal.reactive.OutboundStream} (a
 * subscriber that asks its publisher only for what the peer requested, encodes each element straight into the send
 * ring, and holds at most a small batch back while the ring is full).
 *
 * <p>Both run their ring work on the connection's {@link io.rdmareactive.internal.reactive.ConnectionWorker}, a thread
 * of its own, never on the driver thread and never on two threads at once; the driver only signals them, and a signal
 * hands the stream's own drain to the worker's bounded queue, allocating nothing. This package sees the protocol, the driver's counters, the codecs
 * and Reactor; it never sees the SPI or a provider, and the public API above it supplies the exception types.
 */
package io.rdmareactive.internal.reactive;
