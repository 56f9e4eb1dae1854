/**
 * Runnable samples of the public API, the ones the README quotes. They use only {@code io.rdmareactive} (servers,
 * clients, connections) and {@code io.rdmareactive.codec}, never the SPI, a provider or anything internal, so they
 * show what an application sees.
 *
 * <ul>
 *   <li>{@link io.rdmareactive.samples.PingPong}: two processes, one message in flight, round-trip percentiles
 *       measured with HdrHistogram and every echoed byte checked;</li>
 *   <li>{@link io.rdmareactive.samples.SlowConsumer}: a fast producer meets a slow subscriber; the subscriber's
 *       demand, capped by the prefetch, is the credit that holds the producer back, and nothing is dropped.</li>
 * </ul>
 *
 * <p>Each runs from Maven with a profile ({@code -Pping-pong}, {@code -Pslow-consumer}) or as a plain {@code main}
 * with the two flags every rdma-reactive JVM needs: {@code --enable-native-access=ALL-UNNAMED} and
 * {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}.
 */
package io.rdmareactive.samples;
