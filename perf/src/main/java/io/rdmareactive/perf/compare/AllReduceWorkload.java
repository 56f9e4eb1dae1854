package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.AeronTransport;
import io.rdmareactive.perf.compare.transport.NettyTcpTransport;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import io.rdmareactive.perf.compare.transport.Transport;
import io.rdmareactive.perf.compare.transport.VerbsNodes;
import io.rdmareactive.samples.AllReduceBench;
import io.rdmareactive.samples.RdmaRingLink;
import io.rdmareactive.samples.RingLink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The ring all-reduce of the samples module ({@link AllReduceBench}: reduce-scatter then all-gather of float vectors,
 * pipelined in slices, every element of every rank checked) with its ranks as threads of this JVM, each with a link
 * of its own to its neighbours over one transport: {@link AeronRingLink} for Aeron IPC and UDP, {@link TcpRingLink}
 * for Reactor Netty TCP, the sample's own {@link RdmaRingLink} for rdma-reactive's shared memory and verbs (over two
 * devices, the ranks alternate between the two nodes: {@link #ring}). The same harness code runs over all of them;
 * only the link differs.
 *
 * <p>Per size: {@link #iterations} timed all-reduces after a fifth as many warm-up ones (and, before the first
 * size, untimed ones for the JIT), then one checked; rank 0 reports the greatest of the ranks' average times and
 * the wrong elements summed over every rank.
 */
final class AllReduceWorkload {

    /** The transports with a ring link; the others are skipped, saying why. */
    static final List<String> TRANSPORTS = List.of("aeron-ipc", "aeron-udp", "netty-tcp", "rr-shm-flux",
        "rr-verbs-flux");
    /** The largest slice, as in the sample's default. */
    static final int SLICE_BYTES = 256 << 10;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private AllReduceWorkload() {
    }

    /** A rank's link, made on the rank's own thread. */
    private interface Links {
        RingLink link(int rank) throws Exception;
    }

    /** @return whether {@code transport} has a ring link */
    static boolean fits(final Transport transport) {
        return TRANSPORTS.contains(transport.name());
    }

    /** @return the timed all-reduces of a size: 64 MiB moved in all, at least 3 and at most 100 */
    static int iterations(final long bytes) {
        return (int) Math.max(3, Math.min(100, (64L << 20) / bytes));
    }

    /**
     * Runs every size of the settings on one transport.
     *
     * @return one row per size, from rank 0
     * @throws Exception if a rank failed (a link that broke or stalled past its patience)
     */
    static List<Results.AllReduce> run(final Transport transport, final Settings settings,
                                       final Progress.Point progress) throws Exception {
        final int ranks = settings.traffic().allReduceRanks();
        final List<Integer> sizes = settings.traffic().allReduceSizes();
        final Links links = links(transport, ranks);
        final List<Results.AllReduce> rows = new ArrayList<>();
        final long start = System.nanoTime();
        final ExecutorService threads = Executors.newFixedThreadPool(ranks, runnable -> {
            final Thread thread = new Thread(runnable, transport.name() + "-all-reduce-rank");
            thread.setDaemon(true);
            return thread;
        });
        try {
            final CompletionService<Long> done = new ExecutorCompletionService<>(threads);
            final List<Future<Long>> futures = new ArrayList<>();
            for (int rank = 0; rank < ranks; rank++) {
                final int r = rank;
                futures.add(done.submit(() -> rank(transport.name(), r, ranks, sizes, links, rows, progress,
                    start)));
            }
            for (int i = 0; i < ranks; i++) {
                try {
                    done.take().get();
                } catch (final ExecutionException ex) {
                    // one rank failed: its neighbours would wait out their patience, so stop them now
                    futures.forEach(future -> future.cancel(true));
                    throw ex.getCause() instanceof Exception cause ? cause : ex;
                }
            }
        } finally {
            threads.shutdownNow();
            threads.awaitTermination(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
        return rows;
    }

    /** @return rank {@code rank}'s wrong elements, over every size */
    @SuppressWarnings("try") // a link's close waits for its neighbours and may be interrupted: the caller handles it
    private static long rank(final String transport, final int rank, final int ranks, final List<Integer> sizes,
                             final Links links, final List<Results.AllReduce> rows, final Progress.Point progress,
                             final long start) throws Exception {
        long wrong = 0;
        try (RingLink link = links.link(rank)) {
            final AllReduceBench bench = new AllReduceBench(rank, ranks, SLICE_BYTES / Float.BYTES, link);
            boolean first = true;
            for (final int bytes : sizes) {
                final int iterations = iterations(bytes);
                final int jitWarmups = first ? (int) Math.min(200, (4L << 20) / bytes) : 0;
                wrong += bench.run(bytes, bytes, 2, jitWarmups, Math.max(1, iterations / 5), iterations, row -> {
                    if (rank == 0) {
                        synchronized (rows) {
                            rows.add(new Results.AllReduce(transport, ranks, row.bytes(), iterations, row.micros(),
                                row.algbw(), row.busbw(), row.wrong()));
                        }
                        progress.at((System.nanoTime() - start) / 1_000_000);
                    }
                });
                first = false;
            }
        }
        return wrong;
    }

    private static Links links(final Transport transport, final int ranks) throws Exception {
        if (transport instanceof AeronTransport aeron) {
            final AeronRingLink[] ring = AeronRingLink.ring(aeron.aeron(), aeron.udp(), ranks, aeron.idle(),
                SLICE_BYTES, PATIENCE);
            return rank -> ring[rank];
        }
        if (transport instanceof NettyTcpTransport) {
            final TcpRingLink[] ring = TcpRingLink.ring(ranks, SLICE_BYTES, PATIENCE);
            return rank -> ring[rank];
        }
        if (transport instanceof ReactiveTransport api) {
            final String[] addresses = api.verbsNodes() != null ? ring(api.verbsNodes(), ranks)
                : shmRing(api, ranks);
            // the transport puts each server on the device owning its address and each client on the device its
            // neighbour's address is reached through (one device: the process's runtime; shm: the run's directory)
            return rank -> RdmaRingLink.open(api.serving(addresses[rank]),
                api.connecting(addresses[(rank + 1) % ranks]), addresses, rank, SLICE_BYTES, PATIENCE);
        }
        throw new IllegalArgumentException(transport.name() + " has no ring link");
    }

    private static String[] shmRing(final ReactiveTransport shm, final int ranks) {
        final String[] addresses = new String[ranks];
        for (int rank = 0; rank < ranks; rank++) {
            addresses[rank] = shm.nextAddress();
        }
        return addresses;
    }

    /**
     * The ranks' addresses over verbs, each a port of its own: with node B's address given
     * ({@code --verbs-client-address}), even ranks on node A (the server device, at {@code --verbs-address}'s IP) and
     * odd ranks on node B (the client device, at node B's IP), so every hop of the ring, rank r to rank r + 1,
     * crosses the link; else every rank on node A (over two devices, each hop still crosses: its client is on node
     * B's device). With an odd number of ranks the last hop is from node A to node A: its client connects from node
     * B's device, through which the route to node A leaves.
     *
     * @return by rank, the {@code IP:PORT} the rank listens at
     */
    static String[] ring(final VerbsNodes verbs, final int ranks) {
        final String[] addresses = new String[ranks];
        for (int rank = 0; rank < ranks; rank++) {
            addresses[rank] = rank % 2 == 0 ? verbs.nextServerAddress() : verbs.nextClientNodeAddress();
        }
        return addresses;
    }
}
