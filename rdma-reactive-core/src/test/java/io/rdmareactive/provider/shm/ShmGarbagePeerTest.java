package io.rdmareactive.provider.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaException;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A same-user peer that writes garbage into the files it shares with this process: values it can reach are copied
 * once and checked, and every loop over them is bounded by what this side owns, so garbage ends in an error, never a
 * hang or a fault. Each test plays the peer by writing the peer's file directly.
 */
class ShmGarbagePeerTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @ShmTestDirectory
    private Path directory;
    private ShmDevice server;
    private ShmDevice client;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeEach
    void open() {
        server = (ShmDevice) RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
        client = (ShmDevice) RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
    }

    @AfterEach
    void close() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        client.close();
        server.close();
    }

    private CompletionQueue clientCq;

    /** @return {server's queue pair, client's queue pair}, connected */
    private QueuePair[] connect() throws Exception {
        final CompletionQueue serverCq = server.createCompletionQueue(64);
        clientCq = client.createCompletionQueue(64);
        try (Listener listener = server.listen("garbage")) {
            final CompletableFuture<QueuePair> accepted = CompletableFuture.supplyAsync(() -> {
                final ConnectRequest request = listener.accept(BOUND);
                return request.accept(QueuePairOptions.builder(serverCq, serverCq).receiveDepth(16).build(),
                    new byte[0]);
            });
            final QueuePair clientQp = client.connect("garbage",
                QueuePairOptions.builder(clientCq, clientCq).receiveDepth(16).build(), new byte[0], BOUND);
            final QueuePair serverQp = accepted.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return new QueuePair[] {serverQp, clientQp};
        }
    }

    /**
     * A connected pair whose server queue pair has three receives posted and, as a peer gone wrong would leave it, a
     * consumer index of {@code Long.MIN_VALUE} in its file (the peer takes receives with a compare-and-set on it).
     */
    private QueuePair[] connectWithAWreckedConsumerIndex() throws Exception {
        final QueuePair[] pair = connect();
        final QueuePair serverQp = pair[0];
        assertThat(serverQp.postReceive(serverQp.newReceiveRequest(8).add(1).add(2).add(3))).isEqualTo(PostStatus.OK);
        try (OffHeapMemory file = OffHeapMemory.mapFile(server.directory().queuePair(server.id(), serverQp.number()),
            4096, OffHeapMemory.FileMode.OPEN_EXISTING)) {
            file.buffer().putLongVolatile(QueuePairFile.CONSUMER, Long.MIN_VALUE);
        }
        return pair;
    }

    @Test
    void aConsumerIndexOfLongMinValueDoesNotMakeCloseLoopForEver() throws Exception {
        final QueuePair[] pair = connectWithAWreckedConsumerIndex();
        final CompletableFuture<Void> closing = CompletableFuture.runAsync(pair[0]::close);
        closing.get(BOUND.toMillis(), TimeUnit.MILLISECONDS); // a loop over 2^63 receives would never end
        pair[1].close();
    }

    @Test
    void aConsumerIndexOfLongMinValueDoesNotMakeTheErrorStatesFlushLoopForEver() throws Exception {
        final QueuePair[] pair = connectWithAWreckedConsumerIndex();
        // entering the error state flushes the posted receives: at most the ones this side posted
        final CompletableFuture<Void> failing = CompletableFuture.runAsync(pair[0]::disconnect);
        failing.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(pair[0].state()).isEqualTo(io.rdmareactive.spi.QueuePairState.ERROR);
        pair[0].close();
        pair[1].close();
    }

    @Test
    void aRegionTableEntryWithAnImpossibleBaseOrLengthRefusesTheWriteWithARemoteAccessError() throws Exception {
        final QueuePair[] pair = connect();
        final QueuePair clientQp = pair[1];
        final MemoryRegion target = server.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        toClose.add(target);
        final MemoryRegion source = client.allocateRegion(4096, Access.LOCAL_WRITE);
        toClose.add(source);
        final long[][] garbage = {
            {Long.MIN_VALUE + 1, 4096},          // a base below any address: the subtraction overflows
            {target.address(), -4096},           // a negative length
            {target.address(), Long.MAX_VALUE},  // a length far beyond the mapping
        };
        try (OffHeapMemory table = OffHeapMemory.mapFile(server.directory().regionTable(server.id()),
            io.rdmareactive.ring.PageSize.roundUp(RegionTable.LENGTH), OffHeapMemory.FileMode.OPEN_EXISTING)) {
            final int entry = RegionTable.offset(RegionTable.indexOf(target.rkey()));
            for (final long[] values : garbage) {
                table.buffer().putLong(entry + RegionTable.BASE, values[0]);
                table.buffer().putLong(entry + RegionTable.REGION_LENGTH, values[1]);
                final SendWorkRequest write = clientQp.newSendRequest(1);
                write.add(7, WorkRequestOpcode.RDMA_WRITE, SendFlags.SIGNALED)
                    .sge(source.address(), 64, source.lkey())
                    .remote(target.address() + 8192, target.rkey());
                clientQp.postSend(write);
                final int[] status = {-1};
                final long deadline = System.nanoTime() + BOUND.toNanos();
                while (status[0] < 0 && System.nanoTime() < deadline) {
                    clientCq.poll(completion -> status[0] = completion.status(), 1);
                }
                assertThat(status[0]).as("base %d, length %d", values[0], values[1])
                    .isEqualTo(CompletionStatus.REM_ACCESS_ERR);
                if (clientQp.state() != io.rdmareactive.spi.QueuePairState.READY_TO_SEND) {
                    break; // a remote access error moves the queue pair to the error state, as on verbs
                }
            }
        }
        pair[0].close();
        clientQp.close();
    }

    @Test
    void aDeviceIdThatIsNotOneCannotNameAFileOutsideTheDirectory() {
        final ShmDirectory files = server.directory();
        for (final String id : List.of("../../etc/passwd", "1-deadbeef/../x", "", "12345-DEADBEEF", "x-00000000")) {
            assertThatThrownBy(() -> files.queuePair(id, 1)).as(id).isInstanceOf(RdmaException.class)
                .hasMessageContaining("is not a shared-memory device id");
            assertThatThrownBy(() -> files.regionTable(id)).as(id).isInstanceOf(RdmaException.class);
            assertThatThrownBy(() -> files.completionQueue(id, 1)).as(id).isInstanceOf(RdmaException.class);
        }
        assertThat(files.queuePair(server.id(), 1).getParent()).isEqualTo(files.path());
    }
}
