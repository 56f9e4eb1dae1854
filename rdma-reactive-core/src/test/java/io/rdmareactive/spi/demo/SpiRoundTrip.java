package io.rdmareactive.spi.demo;

// tag::spi[]
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionQueue;
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
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
// end::spi[]

/**
 * The skeleton of providers.md as a program that runs: two devices of one provider in one process, one listening, one
 * connecting. The connecting side writes 32 bytes into the listening side's registered memory with an RDMA WRITE WITH
 * IMMEDIATE, and the listening side's completion queue reports the immediate, its CPU having touched nothing.
 */
public final class SpiRoundTrip {

    private SpiRoundTrip() {
    }

    /**
     * What arrived.
     *
     * @param immediate the write's immediate, as the listening side's receive completion reported it
     * @param firstWord the first 8 bytes of the listening side's region after the write
     */
    public record Arrival(int immediate, long firstWord) {
    }

    /**
     * @param providerName the provider, e.g. {@code shm}
     * @param address      where the listening side listens, in the provider's address form
     * @return what the listening side saw
     */
    public static Arrival writeWithImmediate(final String providerName, final String address) {
        // tag::spi[]
        RdmaProvider provider = RdmaProviders.named(providerName);
        Duration timeout = Duration.ofSeconds(10);
        try (RdmaDevice listening = provider.open(DeviceOptions.defaults());
             RdmaDevice connecting = provider.open(DeviceOptions.defaults())) {
            // the listening side: memory the peer may write, a completion queue, a listener
            MemoryRegion target = listening.allocateRegion(64 * 1024, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            CompletionQueue targetCq = listening.createCompletionQueue(512);
            QueuePairOptions targetOptions = QueuePairOptions.builder(targetCq, targetCq).receiveDepth(256).build();
            Listener listener = listening.listen(address);

            // the connecting side: memory to send from; connect() waits for the listener's answer, so another thread
            MemoryRegion source = connecting.allocateRegion(4096, Access.LOCAL_WRITE);
            CompletionQueue sourceCq = connecting.createCompletionQueue(512);
            QueuePairOptions sourceOptions = QueuePairOptions.builder(sourceCq, sourceCq).signalAll(false).build();
            CompletableFuture<QueuePair> connected = CompletableFuture.supplyAsync(
                () -> connecting.connect(address, sourceOptions, new byte[0], timeout));

            // the listener accepts, answering with where its memory is (the private data of the connection)
            ConnectRequest request = listener.accept(timeout);
            byte[] where = ByteBuffer.allocate(12).putLong(target.address()).putInt(target.rkey()).array();
            QueuePair served = request.accept(targetOptions, where);
            ReceiveWorkRequest receive = served.newReceiveRequest(64);
            served.postReceive(receive.clear().add(1));   // a receive with no buffer absorbs a WRITE_WITH_IMM

            // the connecting side writes straight into the listener's memory, and says so with an immediate
            QueuePair queuePair = connected.join();
            ByteBuffer peer = ByteBuffer.wrap(queuePair.peerPrivateData());
            source.buffer().putLong(0, 4711L);
            SendWorkRequest send = queuePair.newSendRequest(1);
            send.clear().add(7, WorkRequestOpcode.RDMA_WRITE_WITH_IMM, SendFlags.SIGNALED)
                .sge(source.address(), 32, source.lkey())
                .remote(peer.getLong(), peer.getInt())
                .immediate(42);
            int status = queuePair.postSend(send);
            if (status != PostStatus.OK) {
                throw new RdmaException("post send: " + PostStatus.name(status));
            }

            // the listening side polls its completion queue; a completion is valid only inside the handler
            int[] immediate = {-1};
            long deadline = System.nanoTime() + timeout.toNanos();
            while (immediate[0] < 0 && System.nanoTime() < deadline) {
                targetCq.poll(completion -> {
                    if (completion.isReceive() && completion.isSuccess()) {
                        immediate[0] = completion.immediate();
                    }
                }, 16);
            }
            return new Arrival(immediate[0], target.buffer().getLong(0));
        }
        // end::spi[]
    }
}
