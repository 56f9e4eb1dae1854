/**
 * Runnable samples of the public API, the ones the README quotes. They use only {@code io.rdmareactive} (servers,
 * clients, connections) and {@code io.rdmareactive.codec}, never the SPI, a provider or anything internal, so they
 * show what an application sees.
 *
 * <ul>
 *   <li>{@link io.rdmareactive.samples.PingPong}: two processes, one message in flight, round-trip percentiles
 *       measured with HdrHistogram and every echoed byte checked;</li>
 *   <li>{@link io.rdmareactive.samples.SlowConsumer}: a fast producer meets a slow subscriber; the subscriber's
 *       demand, capped by the prefetch, is the credit that holds the producer back, and nothing is dropped;</li>
 *   <li>{@link io.rdmareactive.samples.RemoteLookup}: lookups in a server's hash table with one-sided READs, against
 *       the same lookups as requestResponse calls, every value checked, with the server's CPU time per lookup;</li>
 *   <li>{@link io.rdmareactive.samples.SharedCounter}: several processes add to one counter in a server's memory
 *       with FETCH_AND_ADD, and it ends exactly at processes x increments;</li>
 *   <li>{@link io.rdmareactive.samples.AllReduce}: processes in a ring of connections sum float vectors element by
 *       element (reduce-scatter, then all-gather, pipelined in slices), every element checked on every rank, with
 *       nccl-tests' table of time, algbw and busbw per size.</li>
 * </ul>
 *
 * <p>The examples the pages of {@code docs/} quote are in {@link io.rdmareactive.samples.docs}.
 *
 * <p>Each runs from Maven by name through {@link io.rdmareactive.samples.Samples}
 * ({@code ./mvnw -q -pl samples -am -DskipTests package exec:exec -Dsample=ping-pong}; without {@code -Dsample} it
 * lists them) or as a plain {@code main}
 * with the two flags every rdma-reactive JVM needs: {@code --enable-native-access=ALL-UNNAMED} and
 * {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}.
 */
package io.rdmareactive.samples;
