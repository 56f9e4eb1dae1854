package io.rdmareactive.spi.conformance;

import io.rdmareactive.ring.PageSize;
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The other process of the cross-process conformance tests: a second JVM that opens the provider, connects to the
 * test's listener and proves that data crosses the process boundary.
 *
 * <p>Usage: {@code ConformancePeer <provider> <directory|-> <address> <kill|exchange> [--device=NAME]
 * [--property=KEY=VALUE]...}
 *
 * <p>The exchange, in order (no step relies on retries for receiver-not-ready):
 * <ol>
 * <li>the peer connects; its private data describes its region ({@link #encodeRegion}); the test accepts with private
 * data describing the test's region;</li>
 * <li>the peer posts a receive for the test's ping, prints {@code CONNECTED}, and waits for the test to RDMA WRITE
 * {@link #GO} into the first word of the peer's region (the test does so after posting its own receives);</li>
 * <li>the peer RDMA WRITEs {@link #PATTERN_LENGTH} pattern bytes to offset 0 of the test's region, then RDMA WRITEs
 * WITH IMMEDIATE {@link #TAIL_LENGTH} bytes to {@link #TAIL_OFFSET} with immediate {@link #READY_IMMEDIATE}, and
 * prints {@code READY} once both completed successfully;</li>
 * <li>{@code kill}: the peer waits to be killed. {@code add}: it adds 1 to a word of the test's region many times with
 * ATOMIC_FETCH_AND_ADD once the test says go, prints {@code ADDED}, disconnects and prints {@code BYE}.
 * {@code exchange}: it waits for the test's SEND, answers with a
 * SEND_WITH_IMM of the same bytes reversed and immediate {@link #REPLY_IMMEDIATE}, prints {@code REPLIED},
 * disconnects, closes its device, prints {@code BYE} and exits 0.</li>
 * </ol>
 * Any failure prints {@code FAILED} with the reason and exits 2. If the test JVM goes away (standard input reaches
 * its end), the peer halts at once, so it never outlives the build.
 */
public final class ConformancePeer {

    static final int MAGIC = 0x52524346;
    static final int GO = 0x60_60_60_60;
    static final int PATTERN_LENGTH = 1024;
    static final int PATTERN_SEED = 0x3C;
    static final int TAIL_OFFSET = 2048;
    static final int TAIL_LENGTH = 16;
    static final int TAIL_SEED = 0x71;
    static final int READY_IMMEDIATE = 0xC0FFEE01;
    static final int REPLY_IMMEDIATE = 0xFEEDBEEF;
    static final int PING_CAPACITY = 512;
    static final int PRIVATE_DATA_LENGTH = 24;

    private static final int PAGE = PageSize.get();
    private static final Duration WAIT = Duration.ofSeconds(30);

    private ConformancePeer() {
    }

    public static void main(final String[] args) {
        int exit;
        try {
            exit = run(args);
        } catch (final Throwable failure) {
            System.out.println("FAILED " + failure);
            failure.printStackTrace(System.out);
            exit = 2;
        }
        System.out.flush();
        System.exit(exit);
    }

    /** @return the arguments that make a peer open the device the way {@code options} describe */
    static List<String> arguments(final String provider, final DeviceOptions options, final String address,
                                  final String mode) {
        final List<String> arguments = new ArrayList<>();
        arguments.add(provider);
        arguments.add(options.directory().map(Path::toString).orElse("-"));
        arguments.add(address);
        arguments.add(mode);
        options.deviceName().ifPresent(name -> arguments.add("--device=" + name));
        options.properties().forEach((key, value) -> arguments.add("--property=" + key + "=" + value));
        if (options.maxRegisteredBytes() != DeviceOptions.UNLIMITED) {
            arguments.add("--max-registered-bytes=" + options.maxRegisteredBytes());
        }
        return arguments;
    }

    private static int run(final String[] args) {
        if (args.length < 4 || !(args[3].equals("kill") || args[3].equals("exchange") || args[3].equals("add"))) {
            throw new IllegalArgumentException("usage: ConformancePeer <provider> <directory|-> <address> "
                + "<kill|exchange|add> [--device=NAME] [--property=KEY=VALUE]...");
        }
        final String mode = args[3];
        final DeviceOptions.Builder options = DeviceOptions.builder();
        if (!args[1].equals("-")) {
            options.directory(Path.of(args[1]));
        }
        for (int i = 4; i < args.length; i++) {
            final String arg = args[i];
            if (arg.startsWith("--device=")) {
                options.deviceName(arg.substring("--device=".length()));
            } else if (arg.startsWith("--property=")) {
                final String property = arg.substring("--property=".length());
                final int eq = property.indexOf('=');
                options.property(property.substring(0, eq), property.substring(eq + 1));
            } else if (arg.startsWith("--max-registered-bytes=")) {
                options.maxRegisteredBytes(Long.parseLong(arg.substring("--max-registered-bytes=".length())));
            } else {
                throw new IllegalArgumentException("unknown argument " + arg);
            }
        }
        haltWhenParentGoes();

        try (RdmaDevice device = RdmaProviders.named(args[0]).open(options.build())) {
            final MemoryRegion region = device.allocateRegion(4L * PAGE,
                Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            // mode add: the values before of ADD_BATCH atomics land at 3 * PAGE
            final CompletionQueue sendCq = device.createCompletionQueue(64);
            final CompletionQueue recvCq = device.createCompletionQueue(64);
            final QueuePairOptions qpOptions = QueuePairOptions.builder(sendCq, recvCq).sendDepth(16).receiveDepth(16)
                .maxSendSge(1).maxReceiveSge(1).maxInlineData(0).signalAll(true).rnrRetries(0).build();
            final QueuePair qp = device.connect(args[2], qpOptions, encodeRegion(region), WAIT);
            final long[] test = decodeRegion(qp.peerPrivateData());
            final long testAddress = test[0];
            final int testRkey = (int) test[1];

            final SendWorkRequest sends = qp.newSendRequest(4);
            final ReceiveWorkRequest receives = qp.newReceiveRequest(4);
            receives.clear().add(1).sge(region.address() + 2L * PAGE, PING_CAPACITY, region.lkey());
            check("post the ping receive", qp.postReceive(receives));
            System.out.println("CONNECTED qp=" + qp.number());

            final long deadline = System.nanoTime() + WAIT.toNanos();
            while (region.buffer().getIntVolatile(0) != GO) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the test never wrote GO into this peer's region");
                }
                LockSupport.parkNanos(100_000);
            }

            region.buffer().putBytes(PAGE, pattern(PATTERN_LENGTH, PATTERN_SEED));
            region.buffer().putBytes(PAGE + TAIL_OFFSET, pattern(TAIL_LENGTH, TAIL_SEED));
            sends.clear()
                .add(10, WorkRequestOpcode.RDMA_WRITE, SendFlags.SIGNALED)
                .sge(region.address() + PAGE, PATTERN_LENGTH, region.lkey())
                .remote(testAddress, testRkey)
                .add(11, WorkRequestOpcode.RDMA_WRITE_WITH_IMM, SendFlags.SIGNALED)
                .sge(region.address() + PAGE + TAIL_OFFSET, TAIL_LENGTH, region.lkey())
                .remote(testAddress + TAIL_OFFSET, testRkey)
                .immediate(READY_IMMEDIATE);
            check("post the pattern writes", qp.postSend(sends));
            awaitSuccess(sendCq, 2, "the pattern writes");
            System.out.println("READY");

            if (mode.equals("kill")) {
                while (true) {
                    LockSupport.parkNanos(1_000_000_000L);
                }
            }
            if (mode.equals("add")) {
                addToTheTestsWord(region, qp, sends, sendCq, testAddress, testRkey);
                qp.disconnect();
                System.out.println("BYE");
                return 0;
            }

            final int pingLength = awaitSuccess(recvCq, 1, "the test's ping");
            final byte[] ping = new byte[pingLength];
            region.buffer().getBytes(2 * PAGE, ping);
            final byte[] reply = new byte[pingLength];
            for (int i = 0; i < pingLength; i++) {
                reply[i] = ping[pingLength - 1 - i];
            }
            region.buffer().putBytes(3 * PAGE, reply);
            sends.clear()
                .add(20, WorkRequestOpcode.SEND_WITH_IMM, SendFlags.SIGNALED)
                .sge(region.address() + 3L * PAGE, pingLength, region.lkey())
                .immediate(REPLY_IMMEDIATE);
            check("post the reply", qp.postSend(sends));
            awaitSuccess(sendCq, 1, "the reply");
            System.out.println("REPLIED " + pingLength);
            qp.disconnect();
        }
        System.out.println("BYE");
        return 0;
    }

    /**
     * Mode {@code add}: once the test wrote {@link #GO} into the second word of this peer's region (to all its peers
     * at about the same time), adds 1 to the test's word at {@link #ATOMIC_OFFSET} {@link #ADDS} times with
     * ATOMIC_FETCH_AND_ADD, {@link #ADD_BATCH} in flight, each value before read back; prints {@code ADDED}.
     */
    private static void addToTheTestsWord(final MemoryRegion region, final QueuePair qp, final SendWorkRequest sends,
                                          final CompletionQueue sendCq, final long testAddress, final int testRkey) {
        // the test starts the other peer's JVM after this one's handshake, and an emulated guest takes tens of seconds
        // to start one: wait as long as the test waits for a child, twice, and park meanwhile (a spinning wait took a
        // vCPU from that start)
        final long deadline = System.nanoTime() + Await.CHILD_BOUND.multipliedBy(2).toNanos();
        while (region.buffer().getIntVolatile(8) != GO) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the test never wrote GO into this peer's second word");
            }
            LockSupport.parkNanos(100_000);
        }
        for (int done = 0; done < ADDS; done += ADD_BATCH) {
            sends.clear();
            for (int k = 0; k < ADD_BATCH; k++) {
                sends.add(100 + k, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, SendFlags.SIGNALED)
                    .sge(region.address() + 3L * PAGE + 8L * k, Long.BYTES, region.lkey())
                    .remote(testAddress + ATOMIC_OFFSET, testRkey).atomic(1, 0);
            }
            check("post the fetch-and-adds", qp.postSend(sends));
            awaitSuccess(sendCq, ADD_BATCH, "the fetch-and-adds");
        }
        System.out.println("ADDED " + ADDS);
    }

    /** Where mode {@code add} adds, in the test's region. */
    static final int ATOMIC_OFFSET = 3 * PAGE + 64;
    /** How many times each peer of mode {@code add} adds 1. */
    static final int ADDS = 10_000;
    static final int ADD_BATCH = 4;

    /** Polls {@code count} completions, all of which must succeed. @return the byte length of the last one */
    private static int awaitSuccess(final CompletionQueue cq, final int count, final String what) {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        final int[] got = {0, 0};
        final StringBuilder failures = new StringBuilder();
        while (got[0] < count) {
            cq.poll(c -> {
                got[0]++;
                got[1] = c.byteLength();
                if (!c.isSuccess()) {
                    failures.append(" wrId ").append(c.wrId()).append(": ").append(CompletionStatus.name(c.status()));
                }
            }, count - got[0]);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + ": only " + got[0] + " of " + count + " completions came");
            }
            LockSupport.parkNanos(50_000);
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException(what + " failed:" + failures);
        }
        return got[1];
    }

    private static void check(final String what, final int postStatus) {
        if (postStatus != PostStatus.OK) {
            throw new IllegalStateException("cannot " + what + ": " + PostStatus.name(postStatus));
        }
    }

    private static void haltWhenParentGoes() {
        Thread.ofPlatform().daemon().name("conformance-peer-stdin").start(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the test never writes; end of input means the test JVM is gone
                }
            } catch (final IOException ignored) {
                // treated as end of input
            }
            Runtime.getRuntime().halt(4);
        });
    }

    static byte[] pattern(final int length, final int seed) {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (seed + i * 31 + (i >>> 8));
        }
        return bytes;
    }

    /** @return private data naming a region: magic, address, rkey, length (little-endian) */
    static byte[] encodeRegion(final MemoryRegion region) {
        return ByteBuffer.allocate(PRIVATE_DATA_LENGTH).order(ByteOrder.LITTLE_ENDIAN).putInt(MAGIC)
            .putLong(region.address()).putInt(region.rkey()).putLong(region.length()).array();
    }

    /** @return {address, rkey, length} from {@link #encodeRegion} private data */
    static long[] decodeRegion(final byte[] privateData) {
        if (privateData.length < PRIVATE_DATA_LENGTH) {
            throw new IllegalStateException("private data of " + privateData.length + " bytes, expected at least "
                + PRIVATE_DATA_LENGTH);
        }
        final ByteBuffer buffer = ByteBuffer.wrap(privateData).order(ByteOrder.LITTLE_ENDIAN);
        final int magic = buffer.getInt();
        if (magic != MAGIC) {
            throw new IllegalStateException("private data does not start with the magic: 0x" + Integer.toHexString(magic));
        }
        return new long[] {buffer.getLong(), buffer.getInt(), buffer.getLong()};
    }
}
