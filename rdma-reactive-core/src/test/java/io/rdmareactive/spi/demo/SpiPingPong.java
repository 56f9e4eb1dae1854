package io.rdmareactive.spi.demo;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionHandler;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaException;
import io.rdmareactive.spi.RdmaProvider;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * A ping-pong between two processes through the provider SPI: the first process listens and starts the second,
 * which connects; each message is an RDMA WRITE WITH IMMEDIATE into the other process's registered memory, which
 * the other side echoes back the same way. Every echoed byte is checked, and the round-trip times are printed as
 * percentiles.
 *
 * <pre>
 *   ./mvnw -q -Pdemo -DskipTests package               (200 000 round trips of 32 bytes)
 *   ./mvnw -q -Pdemo -DskipTests package -Ddemo.args="--round-trips=N --size=BYTES --provider=shm"
 *   (with --provider=verbs, add --address=IP:PORT of the RDMA interface to listen on)
 * </pre>
 *
 * <p>This demonstrates the SPI itself; the Reactor API arrives on top of it with its own samples.
 */
public final class SpiPingPong {

    private static final int SLOTS = 64;
    private static final int RECEIVE_DEPTH = 256;
    private static final int REPOST_BATCH = 64;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private SpiPingPong() {
    }

    public static void main(final String[] args) throws Exception {
        final Arguments arguments = Arguments.parse(args);
        if (arguments.role.equals("pong")) {
            pong(arguments);
        } else {
            ping(arguments);
        }
    }

    private static void ping(final Arguments arguments) throws Exception {
        final RdmaProvider provider = RdmaProviders.named(arguments.provider);
        final String address = arguments.address != null ? arguments.address
            : "ping-pong-" + ProcessHandle.current().pid();
        System.out.printf(Locale.ROOT, "rdma-reactive SPI ping-pong: provider '%s', 2 processes, %d round trips of "
            + "%d bytes (RDMA WRITE WITH IMMEDIATE each way)%n", provider.name(), arguments.roundTrips, arguments.size);
        try (RdmaDevice device = provider.open(DeviceOptions.defaults());
             Endpoint endpoint = new Endpoint(device, arguments.size);
             Listener listener = device.listen(address)) {
            final ChildJvm pong = startPong(arguments, address);
            try {
                final ConnectRequest request = listener.accept(TIMEOUT);
                if (request == null) {
                    throw new RdmaException("the pong process did not connect within " + TIMEOUT);
                }
                final RegionInfo remote = RegionInfo.decode(request.privateData());
                final QueuePair queuePair = request.accept(endpoint.options(), endpoint.info().encode());
                endpoint.connected(queuePair, remote);
                final long[] rtt = endpoint.runPing(arguments.roundTrips);
                report(rtt, arguments, endpoint.mismatches);
                queuePair.disconnect();
            } finally {
                if (!pong.exitsWithin(Duration.ofSeconds(10))) {
                    pong.kill();
                }
            }
            if (endpoint.mismatches > 0) {
                System.exit(1);
            }
        }
    }

    /** Starts the pong: a JVM like this one (its options, its class path), its lines shown here as they come. */
    private static ChildJvm startPong(final Arguments arguments, final String address) {
        return ChildJvmLauncher.of(SpiPingPong.class)
            .args("--role=pong", "--address=" + address, "--size=" + arguments.size,
                "--provider=" + arguments.provider, "--round-trips=" + arguments.roundTrips)
            .echoOutput("  [pong] ").start();
    }

    private static void pong(final Arguments arguments) {
        final RdmaProvider provider = RdmaProviders.named(arguments.provider);
        try (RdmaDevice device = provider.open(DeviceOptions.defaults());
             Endpoint endpoint = new Endpoint(device, arguments.size)) {
            final QueuePair queuePair = device.connect(arguments.address, endpoint.options(), endpoint.info().encode(),
                TIMEOUT);
            endpoint.connected(queuePair, RegionInfo.decode(queuePair.peerPrivateData()));
            final long echoed = endpoint.runPong(arguments.roundTrips);
            System.out.println("echoed " + echoed + " messages");
        }
    }

    private static void report(final long[] rtt, final Arguments arguments, final long mismatches) {
        final int warmUp = rtt.length / 10;
        final long[] measured = Arrays.copyOfRange(rtt, warmUp, rtt.length);
        Arrays.sort(measured);
        long total = 0;
        for (final long value : measured) {
            total += value;
        }
        System.out.printf(Locale.ROOT, "round trips: %d measured (%d warm-up discarded); echoed bytes checked: %s%n",
            measured.length, warmUp, mismatches == 0 ? "all correct" : mismatches + " MISMATCHES");
        System.out.println("round-trip time");
        System.out.printf(Locale.ROOT, "  p50    %8.2f us%n", percentile(measured, 50.0) / 1000.0);
        System.out.printf(Locale.ROOT, "  p90    %8.2f us%n", percentile(measured, 90.0) / 1000.0);
        System.out.printf(Locale.ROOT, "  p99    %8.2f us%n", percentile(measured, 99.0) / 1000.0);
        System.out.printf(Locale.ROOT, "  p99.9  %8.2f us%n", percentile(measured, 99.9) / 1000.0);
        System.out.printf(Locale.ROOT, "  max    %8.2f us%n", measured[measured.length - 1] / 1000.0);
        System.out.printf(Locale.ROOT, "throughput: %.0f round trips/s (one in flight at a time)%n",
            measured.length / (total / 1e9));
    }

    private static long percentile(final long[] sorted, final double percentile) {
        final int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    /** One side: a region the peer writes into, a completion queue, a queue pair, reusable requests. */
    private static final class Endpoint implements AutoCloseable, CompletionHandler {
        private final int size;
        private final MemoryRegion region;
        private final CompletionQueue completions;
        private QueuePair queuePair;
        private RegionInfo remote;
        private SendWorkRequest send;
        private ReceiveWorkRequest receive;
        private long nextReceiveId;
        private int receivesToRepost;
        private int lastImmediate;
        private boolean received;
        private int failedStatus = -1;
        private long mismatches;
        private long sent;

        Endpoint(final RdmaDevice device, final int size) {
            this.size = size;
            final long length = Math.max(4096, roundUp((long) size * SLOTS));
            this.region = device.allocateRegion(length, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            this.completions = device.createCompletionQueue(RECEIVE_DEPTH * 2);
        }

        private static long roundUp(final long length) {
            return (length + 4095) & -4096L;
        }

        RegionInfo info() {
            return new RegionInfo(region.address(), region.rkey(), region.length());
        }

        QueuePairOptions options() {
            return QueuePairOptions.builder(completions, completions).receiveDepth(RECEIVE_DEPTH).sendDepth(128).rnrRetries(7)
                .signalAll(false).build();
        }

        void connected(final QueuePair queuePair, final RegionInfo remote) {
            this.queuePair = queuePair;
            this.remote = remote;
            this.send = queuePair.newSendRequest(1);
            this.receive = queuePair.newReceiveRequest(REPOST_BATCH);
            postReceives(RECEIVE_DEPTH);
        }

        private void postReceives(final int count) {
            for (int done = 0; done < count; done += REPOST_BATCH) {
                receive.clear();
                for (int i = 0; i < Math.min(REPOST_BATCH, count - done); i++) {
                    receive.add(nextReceiveId++); // zero-length: it only absorbs the immediate
                }
                check(queuePair.postReceive(receive), "post receives");
            }
        }

        long[] runPing(final int roundTrips) {
            final long[] rtt = new long[roundTrips];
            for (int i = 0; i < roundTrips; i++) {
                final int offset = (i % SLOTS) * size;
                fill(offset, i);
                final long start = System.nanoTime();
                write(offset, i);
                awaitMessage();
                rtt[i] = System.nanoTime() - start;
                verify(offset, i);
            }
            return rtt;
        }

        long runPong(final int roundTrips) {
            for (int i = 0; i < roundTrips; i++) {
                awaitMessage();
                final int sequence = lastImmediate;
                final int offset = (sequence % SLOTS) * size;
                // echo the bytes that arrived in our region back to the same offset of the peer's
                write(offset, sequence);
            }
            return roundTrips;
        }

        private void fill(final int offset, final int sequence) {
            for (int i = 0; i < size; i++) {
                region.buffer().putByte(offset + i, (byte) (sequence * 31 + i));
            }
        }

        private void verify(final int offset, final int sequence) {
            if (lastImmediate != sequence) {
                mismatches++;
                return;
            }
            for (int i = 0; i < size; i++) {
                if (region.buffer().getByte(offset + i) != (byte) (sequence * 31 + i)) {
                    mismatches++;
                    return;
                }
            }
        }

        private void write(final int offset, final int sequence) {
            final boolean signal = ++sent % 64 == 0; // selective signalling keeps the completion queue short
            send.clear().add(sequence, WorkRequestOpcode.RDMA_WRITE_WITH_IMM, signal ? SendFlags.SIGNALED : 0)
                .sge(region.address() + offset, size, region.lkey())
                .remote(remote.address() + offset, remote.rkey())
                .immediate(sequence);
            check(queuePair.postSend(send), "post send");
        }

        private void awaitMessage() {
            received = false;
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            int idle = 0;
            while (!received) {
                if (completions.poll(this, 16) == 0) {
                    // spin first for latency, then yield so two spinning processes never starve a small machine
                    if (++idle < 256) {
                        Thread.onSpinWait();
                    } else {
                        Thread.yield();
                    }
                    if (System.nanoTime() > deadline) {
                        throw new RdmaException("no message from the peer within " + TIMEOUT + "; its queue pair is "
                            + queuePair.state() + (queuePair.errorReason() == null ? "" : ": " + queuePair.errorReason()));
                    }
                }
                if (failedStatus >= 0) {
                    throw new RdmaException("a work request failed: " + CompletionStatus.name(failedStatus) + " ("
                        + CompletionStatus.explain(failedStatus) + "); " + queuePair.errorReason());
                }
            }
            if (receivesToRepost >= REPOST_BATCH) {
                postReceives(receivesToRepost);
                receivesToRepost = 0;
            }
        }

        @Override
        public void onCompletion(final io.rdmareactive.spi.Completion completion) {
            if (!completion.isSuccess()) {
                failedStatus = completion.status();
            } else if (completion.isReceive()) {
                lastImmediate = completion.immediate();
                received = true;
                receivesToRepost++;
            }
        }

        private static void check(final int status, final String what) {
            if (status != PostStatus.OK) {
                throw new RdmaException(what + " failed: " + PostStatus.name(status));
            }
        }

        @Override
        public void close() {
            if (queuePair != null) {
                queuePair.close();
            }
            completions.close();
            region.close();
        }
    }

    /** Where a peer may write: carried in the connection's private data (20 of its 56 bytes). */
    private record RegionInfo(long address, int rkey, long length) {
        byte[] encode() {
            return ByteBuffer.allocate(20).putLong(address).putInt(rkey).putLong(length).array();
        }

        static RegionInfo decode(final byte[] data) {
            if (data.length < 20) {
                throw new RdmaException("the peer's private data holds " + data.length + " bytes, not 20");
            }
            final ByteBuffer buffer = ByteBuffer.wrap(data);
            return new RegionInfo(buffer.getLong(), buffer.getInt(), buffer.getLong());
        }
    }

    private record Arguments(String role, String address, int roundTrips, int size, String provider) {
        static Arguments parse(final String[] args) {
            String role = "ping";
            String address = null;
            int roundTrips = 200_000;
            int size = 32;
            String provider = "shm";
            for (final String arg : String.join(" ", args).trim().split("\\s+")) {
                if (arg.isEmpty()) {
                    continue;
                }
                final int equals = arg.indexOf('=');
                final String key = equals < 0 ? arg : arg.substring(0, equals);
                final String value = equals < 0 ? "" : arg.substring(equals + 1);
                switch (key) {
                    case "--role" -> role = value;
                    case "--address" -> address = value;
                    case "--round-trips" -> roundTrips = Integer.parseInt(value);
                    case "--size" -> size = Integer.parseInt(value);
                    case "--provider" -> provider = value;
                    default -> throw new IllegalArgumentException("unknown argument " + arg
                        + "; use --round-trips=N --size=BYTES --provider=NAME [--address=WHERE]");
                }
            }
            if (roundTrips < 10 || size < 1 || size > 65536) {
                throw new IllegalArgumentException("--round-trips must be at least 10 and --size 1 to 65536");
            }
            return new Arguments(role, address, roundTrips, size, provider);
        }
    }
}
