package io.rdmareactive.provider.shm;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.rdmareactive.testsupport.AllocationMeter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Posting and polling on the shared-memory provider allocate nothing: the heap bytes this thread allocates over
 * 100 000 rounds of SEND / WRITE_WITH_IMM / RDMA_WRITE / RDMA_READ with their receives and completions are
 * counted by the JVM ({@code ThreadMXBean.getCurrentThreadAllocatedBytes}), which is exact and independent of
 * timing. The bound is a tenth of a byte per round: far below any per-message allocation.
 */
class ShmHotPathAllocationTest {

    private static final int ROUNDS = 100_000;

    @Test
    void postingAndPollingAllocateNothing() throws Exception {
        final Path directory = Files.createTempDirectory(Path.of("/tmp"), "rr");
        final DeviceOptions options = DeviceOptions.builder().directory(directory).build();
        try (RdmaDevice server = RdmaProviders.named("shm").open(options);
             RdmaDevice client = RdmaProviders.named("shm").open(options)) {
            final CompletionQueue serverCq = server.createCompletionQueue(256);
            final CompletionQueue clientCq = client.createCompletionQueue(256);
            final MemoryRegion serverRegion = server.allocateRegion(8192,
                Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            final MemoryRegion clientRegion = client.allocateRegion(8192, Access.LOCAL_WRITE);
            final QueuePair clientQp;
            final QueuePair serverQp;
            try (Listener listener = server.listen("hot-path")) {
                final CompletableFuture<QueuePair> accepted = CompletableFuture.supplyAsync(() -> {
                    final ConnectRequest request = listener.accept(Duration.ofSeconds(10));
                    return request.accept(QueuePairOptions.builder(serverCq, serverCq).build(), new byte[0]);
                });
                clientQp = client.connect("hot-path", QueuePairOptions.builder(clientCq, clientCq).signalAll(false)
                    .build(), new byte[0], Duration.ofSeconds(10));
                serverQp = accepted.get();
            }
            final ReceiveWorkRequest receive = serverQp.newReceiveRequest(2);
            final SendWorkRequest send = clientQp.newSendRequest(4);
            final Counter counter = new Counter();

            final Runnable round = () -> {
                receive.clear().add(1).sge(serverRegion.address(), 64, serverRegion.lkey()).add(2);
                check(serverQp.postReceive(receive));
                send.clear()
                    .add(10, WorkRequestOpcode.SEND_WITH_IMM, 0).sge(clientRegion.address(), 64, clientRegion.lkey())
                    .immediate(7)
                    .add(11, WorkRequestOpcode.RDMA_WRITE_WITH_IMM, 0).sge(clientRegion.address(), 128,
                        clientRegion.lkey()).remote(serverRegion.address() + 4096, serverRegion.rkey()).immediate(8)
                    .add(12, WorkRequestOpcode.RDMA_WRITE, 0).sge(clientRegion.address(), 256, clientRegion.lkey())
                    .remote(serverRegion.address() + 1024, serverRegion.rkey())
                    .add(13, WorkRequestOpcode.RDMA_READ, SendFlags.SIGNALED).sge(clientRegion.address() + 4096, 512,
                        clientRegion.lkey()).remote(serverRegion.address(), serverRegion.rkey());
                check(clientQp.postSend(send));
                while (serverCq.poll(counter, 16) > 0) {
                    // drain
                }
                while (clientCq.poll(counter, 16) > 0) {
                    // drain
                }
            };
            final long allocated = AllocationMeter.currentThread().allocatedBy(20_000, ROUNDS, round);

            assertThat(counter.failures).as("failed completions").isZero();
            assertThat(counter.completions).as("completions: 2 receives and 1 signalled send per round")
                .isEqualTo(3L * (ROUNDS + 20_000));
            AllocationMeter.assertNothingPerRound(allocated, ROUNDS, "rounds of posting and polling");
            clientQp.close();
            serverQp.close();
        } finally {
            Files.deleteIfExists(directory);
        }
    }

    private static void check(final int status) {
        if (status != PostStatus.OK) {
            throw new AssertionError("post failed: " + PostStatus.name(status));
        }
    }

    private static final class Counter implements CompletionHandler {
        long completions;
        long failures;

        @Override
        public void onCompletion(final Completion completion) {
            completions++;
            if (!completion.isSuccess()) {
                failures++;
            }
        }
    }
}
