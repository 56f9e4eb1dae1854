package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.Completion;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a connected peer can do to this side's memory: write its receive rings and credit lines (the one region it
 * was given a key to, with remote write only), and nothing else. It cannot read that region, cannot write past it,
 * cannot use another connection's key, and a key it was given dies with its connection: used over a later
 * connection, it is refused.
 */
class PeerMemoryAccessTest {

    private static final ProtocolOptions OPTIONS = new ProtocolOptions(4, 8192, 1 << 20, Duration.ofSeconds(1),
        Duration.ofSeconds(5));

    @ShmTestDirectory
    private Path directory;
    private RdmaDevice victimDevice;
    private RdmaDevice rogueDevice;

    @BeforeEach
    void open() {
        victimDevice = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
        rogueDevice = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
    }

    @AfterEach
    void close() {
        rogueDevice.close();
        victimDevice.close();
    }

    /** A rogue connection: its own queue pair, memory and completion queue, and the victim's side of it. */
    private final class Rogue implements AutoCloseable {
        final MemoryRegion memory = rogueDevice.allocateRegion(OPTIONS.remoteRegionLength(),
            Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        final CompletionQueue cq = rogueDevice.createCompletionQueue(64);
        final QueuePair queuePair;
        final ProtocolConnection victim;
        final HandshakeFlyweight target;

        Rogue(final Listener listener) throws Exception {
            final CompletableFuture<ProtocolConnection> victimSide = CompletableFuture.supplyAsync(() ->
                ConnectionEstablishment.accept(victimDevice, listener.accept(Duration.ofSeconds(10)), OPTIONS));
            final byte[] handshake = new byte[HandshakeFlyweight.LENGTH];
            new HandshakeFlyweight().wrap(new UnsafeBuffer(handshake), 0).write(OPTIONS.maxStreams(),
                OPTIONS.ringCapacity(), OPTIONS.maxMessageLength(), memory.rkey(), memory.address(), memory.length());
            queuePair = rogueDevice.connect("victim", QueuePairOptions.builder(cq, cq).build(), handshake,
                Duration.ofSeconds(10));
            victim = victimSide.get(10, TimeUnit.SECONDS);
            target = new HandshakeFlyweight().wrap(new UnsafeBuffer(queuePair.peerPrivateData()), 0);
        }

        /** Posts one request and returns the status of its completion. */
        int post(final int opcode, final long remoteAddress, final int rkey, final int length) {
            final SendWorkRequest request = queuePair.newSendRequest(1);
            request.add(7, opcode, SendFlags.SIGNALED).sge(memory.address(), length, memory.lkey())
                .remote(remoteAddress, rkey);
            queuePair.postSend(request);
            final int[] status = {-1};
            for (int i = 0; i < 10_000 && status[0] < 0; i++) {
                cq.poll((Completion c) -> status[0] = c.status(), 1);
                victim.doWork(System.nanoTime());
            }
            return status[0];
        }

        @Override
        public void close() {
            queuePair.close();
            victim.close();
            cq.close();
            memory.close();
        }
    }

    @Test
    void aPeerCanNeitherReadTheRegionItWritesNorWritePastIt() throws Exception {
        try (Listener listener = victimDevice.listen("victim")) {
            try (Rogue rogue = new Rogue(listener)) {
                assertThat(rogue.post(WorkRequestOpcode.RDMA_READ, rogue.target.receiveRegionAddress(),
                    rogue.target.receiveRegionRkey(), 64)).as("an RDMA READ of the receive region")
                    .isEqualTo(CompletionStatus.REM_ACCESS_ERR);
            }
            try (Rogue rogue = new Rogue(listener)) {
                assertThat(rogue.post(WorkRequestOpcode.RDMA_WRITE, rogue.target.receiveRegionAddress()
                    + rogue.target.receiveRegionLength() - 8, rogue.target.receiveRegionRkey(), 64))
                    .as("an RDMA WRITE running past the receive region")
                    .isEqualTo(CompletionStatus.REM_ACCESS_ERR);
                assertThat(rogue.post(WorkRequestOpcode.RDMA_WRITE, rogue.target.receiveRegionAddress()
                    - 4096, rogue.target.receiveRegionRkey(), 64))
                    .as("an RDMA WRITE below the receive region (where other memory may be)")
                    .isIn(CompletionStatus.REM_ACCESS_ERR, CompletionStatus.WR_FLUSH_ERR);
            }
        }
    }

    /**
     * Each connection's memory is in a protection domain of its own: a peer that uses the key of another live
     * connection's receive region (one it learnt or guessed) gets a remote access error on its own connection, the
     * neighbour's region keeps its bytes, and the neighbour's own writes carry on.
     */
    @Test
    void theKeyOfAnotherLiveConnectionIsRefusedAndTheNeighbourIsUntouched() throws Exception {
        try (Listener listener = victimDevice.listen("victim");
             Rogue neighbour = new Rogue(listener);
             Rogue intruder = new Rogue(listener)) {
            final long line = neighbour.target.receiveRegionAddress() + HandshakeFlyweight.creditOffset(1,
                OPTIONS.maxStreams(), OPTIONS.ringCapacity()) + 32;
            final UnsafeBuffer victimLine = new UnsafeBuffer(line, 8); // the victim's memory, seen in this process
            final long before = victimLine.getLongVolatile(0);
            intruder.memory.buffer().putLong(0, 0x5A5A_5A5A_5A5A_5A5AL);
            assertThat(intruder.post(WorkRequestOpcode.RDMA_WRITE, line, neighbour.target.receiveRegionRkey(), 8))
                .as("a write with the neighbour's key, over the intruder's own connection")
                .isEqualTo(CompletionStatus.REM_ACCESS_ERR);
            assertThat(victimLine.getLongVolatile(0)).as("the neighbour's bytes").isEqualTo(before);
            neighbour.memory.buffer().putLong(0, 77);
            assertThat(neighbour.post(WorkRequestOpcode.RDMA_WRITE, line, neighbour.target.receiveRegionRkey(), 8))
                .as("the neighbour's own write").isEqualTo(CompletionStatus.SUCCESS);
            assertThat(victimLine.getLongVolatile(0)).isEqualTo(77);
            assertThat(neighbour.victim.error()).as("the neighbour's connection").isNull();
        }
    }

    @Test
    void theKeyOfAClosedConnectionIsRefusedOverALaterOne() throws Exception {
        try (Listener listener = victimDevice.listen("victim")) {
            final long oldAddress;
            final int oldKey;
            try (Rogue first = new Rogue(listener)) {
                oldAddress = first.target.receiveRegionAddress();
                oldKey = first.target.receiveRegionRkey();
                assertThat(first.post(WorkRequestOpcode.RDMA_WRITE, oldAddress + HandshakeFlyweight.creditOffset(1,
                    OPTIONS.maxStreams(), OPTIONS.ringCapacity()) + 32, oldKey, 8))
                    .as("a write the key allows, while its connection lives").isEqualTo(CompletionStatus.SUCCESS);
            }
            try (Rogue second = new Rogue(listener)) {
                assertThat(second.target.receiveRegionRkey()).as("a new connection's key").isNotEqualTo(oldKey);
                assertThat(second.post(WorkRequestOpcode.RDMA_WRITE, oldAddress, oldKey, 64))
                    .as("a write with the key of the closed connection").isEqualTo(CompletionStatus.REM_ACCESS_ERR);
                for (int i = 0; i < 100 && second.victim.error() == null; i++) {
                    second.victim.doWork(System.nanoTime());
                    victimDevice.pollEvents(second.victim::onEvent, 16);
                }
                assertThat(second.victim.isTerminated()).as("the victim ends the connection that misused a key")
                    .isTrue();
            }
        }
    }
}
