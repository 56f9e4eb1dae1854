package io.rdmareactive.provider.shm;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionOpcode;
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
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.spi.ReceiveWorkRequest;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ShmSmokeTest {

    @Test
    void writeWithImmediateCrossesBetweenTwoDevices() throws Exception {
        final Path dir = Files.createTempDirectory(Path.of("/tmp"), "rr");
        final DeviceOptions options = DeviceOptions.builder().directory(dir).build();
        try (RdmaDevice server = RdmaProviders.named("shm").open(options);
             RdmaDevice client = RdmaProviders.named("shm").open(options)) {
            final CompletionQueue serverCq = server.createCompletionQueue(64);
            final CompletionQueue clientCq = client.createCompletionQueue(64);
            final MemoryRegion serverRegion = server.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            final MemoryRegion clientRegion = client.allocateRegion(4096, Access.LOCAL_WRITE);
            try (Listener listener = server.listen("smoke")) {
                final CompletableFuture<QueuePair> accepted = CompletableFuture.supplyAsync(() -> {
                    final ConnectRequest request = listener.accept(Duration.ofSeconds(10));
                    return request.accept(QueuePairOptions.builder(serverCq, serverCq).build(), new byte[] {9});
                });
                final QueuePair clientQp = client.connect("smoke", QueuePairOptions.builder(clientCq, clientCq).build(),
                    new byte[] {1, 2}, Duration.ofSeconds(10));
                final QueuePair serverQp = accepted.get();
                assertThat(clientQp.peerPrivateData()).containsExactly(9);
                assertThat(serverQp.peerPrivateData()).containsExactly(1, 2);

                final ReceiveWorkRequest recv = serverQp.newReceiveRequest(4);
                assertThat(serverQp.postReceive(recv.clear().add(77))).isEqualTo(PostStatus.OK);
                clientRegion.buffer().putLong(0, 0x1122334455667788L);
                final SendWorkRequest send = clientQp.newSendRequest(4);
                send.clear().add(5, WorkRequestOpcode.RDMA_WRITE_WITH_IMM, 0)
                    .sge(clientRegion.address(), 8, clientRegion.lkey())
                    .remote(serverRegion.address() + 16, serverRegion.rkey()).immediate(-3);
                assertThat(clientQp.postSend(send)).isEqualTo(PostStatus.OK);

                final List<String> seen = new ArrayList<>();
                serverCq.poll(c -> seen.add(c.wrId() + ":" + CompletionStatus.name(c.status()) + ":"
                    + CompletionOpcode.name(c.opcode()) + ":" + c.byteLength() + ":" + c.immediate()), 10);
                clientCq.poll(c -> seen.add(c.wrId() + ":" + CompletionStatus.name(c.status()) + ":"
                    + CompletionOpcode.name(c.opcode())), 10);
                assertThat(seen).containsExactly("77:IBV_WC_SUCCESS:RECV_RDMA_WITH_IMM:8:-3",
                    "5:IBV_WC_SUCCESS:RDMA_WRITE");
                assertThat(serverRegion.buffer().getLong(16)).isEqualTo(0x1122334455667788L);

                clientQp.close();
                serverQp.close();
            }
        }
        try (var files = Files.list(dir)) {
            assertThat(files.toList()).isEmpty();
        }
        Files.delete(dir);
    }
}
