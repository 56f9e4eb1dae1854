/**
 * The provider SPI: the verbs-shaped contract every transport implements, so that the protocol above it is written
 * once.
 *
 * <p>The shape follows libibverbs and librdmacm: a {@link io.rdmareactive.spi.RdmaProvider} found through
 * {@link java.util.ServiceLoader} opens an {@link io.rdmareactive.spi.RdmaDevice}; the device registers memory
 * ({@link io.rdmareactive.spi.MemoryRegion}: address, length, lkey, rkey, {@link io.rdmareactive.spi.Access access
 * flags}), creates {@link io.rdmareactive.spi.CompletionQueue completion queues}, listens and connects
 * ({@link io.rdmareactive.spi.Listener}, {@link io.rdmareactive.spi.ConnectRequest}, with private data) and yields
 * reliable connected {@link io.rdmareactive.spi.QueuePair queue pairs} that post sends (SEND, SEND_WITH_IMM,
 * RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ) and receives in reusable batches.
 *
 * <p>Two rules hold throughout. On the data path (posting, polling) nothing allocates, locks or throws: posts
 * return a {@link io.rdmareactive.spi.PostStatus}, work completes with a
 * {@link io.rdmareactive.spi.CompletionStatus}, and completions are read through a reused flyweight. On the setup
 * path, failures are {@link io.rdmareactive.spi.RdmaException}s whose message says what was wrong and what to do.
 *
 * <p>Constants carry the numeric values of the verbs enums, so the verbs provider passes them through unchanged.
 * This package sees only the {@code ring-buffers} module and Agrona.
 */
package io.rdmareactive.spi;
