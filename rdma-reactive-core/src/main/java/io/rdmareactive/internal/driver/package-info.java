/**
 * The driver's runtime: the threads that run the busy-poll duty cycles, how they idle, how application threads hand
 * them work, and the counters they keep. The protocol work itself (polling completion queues, moving frames,
 * credits) lives in {@code internal.protocol} and arrives here as Agrona {@link org.agrona.concurrent.Agent}s.
 *
 * <h2>Idling</h2>
 * {@link io.rdmareactive.internal.driver.IdleStrategies} turns configuration names ({@code busy-spin},
 * {@code yielding}, {@code backoff[:...]}, {@code sleeping[:...]}, {@code no-op}) into Agrona idle strategies and
 * documents the default: busy-spin with 4 or more available processors, backoff below that, because DESIGN.md
 * measured that spinning threads on a 2-core machine starve each other (8&nbsp;ms p50 against 27–30&nbsp;µs).
 *
 * <p>This package sees the JDK, Agrona, {@code io.rdmareactive.spi}, {@code io.rdmareactive.ring} and (later)
 * {@code io.rdmareactive.internal.protocol}; never a provider, the reactive layer or Reactor.
 */
package io.rdmareactive.internal.driver;
