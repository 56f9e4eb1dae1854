package io.rdmareactive.perf.spi;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.Completion;
import io.rdmareactive.spi.CompletionHandler;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
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
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The raw provider path on one thread: post one RDMA WRITE WITH IMMEDIATE from one queue pair to its peer, then
 * poll the peer's completion queue until the receive completion arrives (reposting zero-length receives in
 * batches, signalling every 32nd write). Both queue pairs are the shared-memory provider's, connected in this JVM,
 * so an operation is what the provider costs per message with no thread hand-off. {@code -prof gc} shows what
 * posting and polling allocate (the goal is 0).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-exports",
    "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class ProviderPostPollBenchmarks {

    private static final int DEPTH = 512;
    private static final int REPOST = 64;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Param({"32", "4096"})
    public int size;

    private Path directory;
    private RdmaDevice device;
    private MemoryRegion source;
    private MemoryRegion target;
    private CompletionQueue senderCompletions;
    private CompletionQueue receiverCompletions;
    private QueuePair sender;
    private QueuePair receiver;
    private SendWorkRequest write;
    private ReceiveWorkRequest receives;
    private long posted;
    private long receiveIds;
    private int toRepost;
    private boolean arrived;
    private final CompletionHandler onReceive = this::onReceive;
    private final CompletionHandler ignore = completion -> {
        if (!completion.isSuccess()) {
            throw new IllegalStateException("a write failed with status " + completion.status());
        }
    };

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        directory = Files.createTempDirectory(Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
            : Path.of(System.getProperty("java.io.tmpdir")), "rdma-reactive-jmh-");
        device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
        source = device.allocateRegion(Math.max(4096, size), Access.LOCAL_WRITE);
        target = device.allocateRegion(Math.max(4096, size), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        senderCompletions = device.createCompletionQueue(DEPTH * 2);
        receiverCompletions = device.createCompletionQueue(DEPTH * 2);
        final byte[] where = ByteBuffer.allocate(12).putLong(target.address()).putInt(target.rkey()).array();
        try (Listener listener = device.listen("jmh-" + ProcessHandle.current().pid())) {
            final CompletableFuture<QueuePair> connecting = CompletableFuture.supplyAsync(() -> device.connect(
                listener.address(), options(senderCompletions), new byte[0], TIMEOUT));
            final ConnectRequest request = listener.accept(TIMEOUT);
            receiver = request.accept(options(receiverCompletions), where);
            sender = connecting.get();
        }
        write = sender.newSendRequest(1);
        receives = receiver.newReceiveRequest(REPOST);
        postReceives(DEPTH);
    }

    private static QueuePairOptions options(final CompletionQueue completions) {
        return QueuePairOptions.builder(completions, completions).sendDepth(DEPTH).receiveDepth(DEPTH)
            .signalAll(false).build();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        sender.disconnect();
        sender.close();
        receiver.close();
        senderCompletions.close();
        receiverCompletions.close();
        source.close();
        target.close();
        device.close();
        try (var files = Files.walk(directory)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    @Benchmark
    public long writeWithImmediateThenPollIt() {
        final long id = ++posted;
        final boolean signal = id % 32 == 0;
        write.clear().add(id, WorkRequestOpcode.RDMA_WRITE_WITH_IMM, signal ? SendFlags.SIGNALED : 0)
            .sge(source.address(), size, source.lkey()).remote(target.address(), target.rkey()).immediate((int) id);
        if (sender.postSend(write) != PostStatus.OK) {
            throw new IllegalStateException("post send failed");
        }
        if (signal) {
            while (senderCompletions.poll(ignore, 4) == 0) {
                Thread.onSpinWait();
            }
        }
        arrived = false;
        while (!arrived) {
            receiverCompletions.poll(onReceive, 4);
        }
        if (toRepost >= REPOST) {
            postReceives(toRepost);
            toRepost = 0;
        }
        return id;
    }

    private void onReceive(final Completion completion) {
        if (!completion.isSuccess()) {
            throw new IllegalStateException("a receive failed with status " + completion.status());
        }
        arrived = true;
        toRepost++;
    }

    private void postReceives(final int count) {
        receives.clear();
        for (int i = 0; i < count; i++) {
            receives.add(++receiveIds);
            if (receives.count() == REPOST) {
                if (receiver.postReceive(receives) != PostStatus.OK) {
                    throw new IllegalStateException("post receive failed");
                }
                receives.clear();
            }
        }
        if (receives.count() > 0 && receiver.postReceive(receives) != PostStatus.OK) {
            throw new IllegalStateException("post receive failed");
        }
    }
}
