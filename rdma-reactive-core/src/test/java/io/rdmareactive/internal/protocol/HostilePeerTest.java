package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectRequest;
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
import java.util.function.Consumer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A rogue peer speaks the handshake, then writes what it likes into the rings it was given. The victim ends that
 * connection with a protocol error and carries on serving its other connections.
 */
class HostilePeerTest {

    private static final ProtocolOptions OPTIONS = new ProtocolOptions(4, 8192, 1 << 20, Duration.ofSeconds(1),
        Duration.ofSeconds(5));

    enum Attack {
        GARBAGE_FRAME(buffer -> buffer.setMemory(0, 64, (byte) 0x5A), 1, 64, "malformed frame (frame type is not known)"),
        IMPOSSIBLE_LENGTH(buffer -> {
            buffer.putInt(0, 1 << 30);
            buffer.putShort(4, (short) 1);
        }, 1, 64, "malformed frame (frame runs past"),
        UNKNOWN_TYPE(buffer -> {
            buffer.putInt(0, 16);
            buffer.putShort(4, (short) 999);
        }, 1, 16, "malformed frame (frame type is not known)"),
        REQUEST_N_OF_ZERO(buffer -> new RequestNFlyweight().wrap(buffer, 0).write(1, 0, 0), 0,
            RequestNFlyweight.LENGTH, "malformed frame (request n is not positive"),
        REQUEST_N_OF_MINUS_ONE(buffer -> new RequestNFlyweight().wrap(buffer, 0).write(1, 0, -1), 0,
            RequestNFlyweight.LENGTH, "malformed frame (request n is not positive"),
        REQUEST_N_OF_A_NEGATIVE_USE(buffer -> new RequestNFlyweight().wrap(buffer, 0).write(1, -1, 5), 0,
            RequestNFlyweight.LENGTH, "malformed frame (use is negative"),
        REQUEST_N_FOR_A_USE_NOT_BEGUN(buffer -> new RequestNFlyweight().wrap(buffer, 0).write(2, 2, 5), 0,
            RequestNFlyweight.LENGTH, "(REQUEST_N for use 2 of stream 2, which is at use 0)"),
        REQUEST_N_FOR_THE_CONTROL_STREAM(buffer -> new RequestNFlyweight().wrap(buffer, 0).write(0, 0, 5), 0,
            RequestNFlyweight.LENGTH, "malformed frame (stream id is outside"),
        CANCEL_OF_A_NEGATIVE_USE(buffer -> new StreamControlFlyweight().wrap(buffer, 0)
            .write(FrameHeaderFlyweight.CANCEL, 1, Integer.MIN_VALUE), 0, StreamControlFlyweight.LENGTH,
            "malformed frame (use is negative"),
        DATA_ON_THE_CONTROL_STREAM(buffer -> new FrameHeaderFlyweight().wrap(buffer, 0)
            .header(16, FrameHeaderFlyweight.DATA, FrameHeaderFlyweight.WHOLE), 0, 16,
            "malformed frame (frame type does not travel on this stream"),
        OPEN_OF_AN_UNKNOWN_KIND(buffer -> new OpenFrameFlyweight().wrap(buffer, 0).write(2, 9, 0, 1), 2,
            OpenFrameFlyweight.LENGTH, "malformed frame (interaction kind is not known) on stream 2"),
        OPEN_NAMING_ANOTHER_STREAM(buffer -> new OpenFrameFlyweight().wrap(buffer, 0)
            .write(3, OpenFrameFlyweight.REQUEST_RESPONSE, 0, 1), 2, OpenFrameFlyweight.LENGTH,
            "malformed frame (stream id is outside [0, maxStreams), or not one this frame may name) on stream 2"),
        KEEPALIVE_ON_A_DATA_STREAM(buffer -> new KeepaliveFlyweight().wrap(buffer, 0).write(1, 0), 1,
            KeepaliveFlyweight.LENGTH, "malformed frame (frame type does not travel on this stream"),
        CLOSE_IN_VERSION_1(buffer -> new StreamControlFlyweight().wrap(buffer, 0)
            .write(FrameHeaderFlyweight.CLOSE, 1, 0), 1, StreamControlFlyweight.LENGTH,
            "malformed frame (frame type does not travel on this stream"),
        REGION_CLOSED_OF_NO_GENERATION(buffer -> new RegionClosedFlyweight().wrap(buffer, 0).write(0), 0,
            RegionClosedFlyweight.LENGTH, "malformed frame (region generation is not positive"),
        REGION_CLOSED_ON_A_DATA_STREAM(buffer -> new RegionClosedFlyweight().wrap(buffer, 0).write(3), 1,
            RegionClosedFlyweight.LENGTH, "malformed frame (frame type does not travel on this stream"),
        ADVANCE_BEYOND_THE_RING(buffer -> { }, 1, 8192 + 64, "beyond the room it was given"),
        EMPTY_ADVANCE(buffer -> { }, 1, 0, "by nothing"),
        UNKNOWN_STREAM(buffer -> { }, 9, 64, "stream that does not exist"),
        CREDIT_BEYOND_WHAT_WAS_SENT(buffer -> { }, -1, 0, "never sent");

        final Consumer<UnsafeBuffer> frame;
        final int stream;
        final int advance;
        final String expected;

        Attack(final Consumer<UnsafeBuffer> frame, final int stream, final int advance, final String expected) {
            this.frame = frame;
            this.stream = stream;
            this.advance = advance;
            this.expected = expected;
        }
    }

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

    @ParameterizedTest
    @EnumSource(Attack.class)
    void theVictimEndsTheRogueConnectionWithAProtocolErrorAndServesTheOthers(final Attack attack) throws Exception {
        try (Listener listener = victimDevice.listen("victim")) {
            // an honest connection first, which must survive
            final CompletableFuture<ProtocolConnection> honestServer = CompletableFuture.supplyAsync(() ->
                ConnectionEstablishment.accept(victimDevice, listener.accept(Duration.ofSeconds(10)), OPTIONS));
            final ProtocolConnection honestClient = ConnectionEstablishment.connect(rogueDevice, "victim", OPTIONS,
                Duration.ofSeconds(10));
            final ProtocolConnection honest = honestServer.get();

            // the rogue: a valid handshake, then raw verbs
            final CompletableFuture<ProtocolConnection> victimSide = CompletableFuture.supplyAsync(() ->
                ConnectionEstablishment.accept(victimDevice, listener.accept(Duration.ofSeconds(10)), OPTIONS));
            final MemoryRegion rogueMemory = rogueDevice.allocateRegion(OPTIONS.remoteRegionLength(),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            final CompletionQueue cq = rogueDevice.createCompletionQueue(64);
            final QueuePair rogue = rogueDevice.connect("victim", QueuePairOptions.builder(cq, cq).build(),
                handshake(OPTIONS, rogueMemory), Duration.ofSeconds(10));
            final ProtocolConnection victim = victimSide.get();
            final HandshakeFlyweight target = new HandshakeFlyweight().wrap(new UnsafeBuffer(rogue.peerPrivateData()), 0);
            victim.doWork(System.nanoTime()); // posts its receives and grants them

            final UnsafeBuffer scratch = new UnsafeBuffer(rogueMemory.buffer(), 0, 4096);
            attack.frame.accept(scratch);
            final SendWorkRequest send = rogue.newSendRequest(1);
            if (attack.stream < 0) {
                // move the victim's credit for its send ring 1 past anything it sent
                CheckedWord.write(scratch, 0, 4096); // well-formed, so that it is read, and wrong
                send.clear().add(1, WorkRequestOpcode.RDMA_WRITE, SendFlags.SIGNALED)
                    .sge(rogueMemory.address(), CheckedWord.LENGTH, rogueMemory.lkey())
                    .remote(target.receiveRegionAddress() + HandshakeFlyweight.creditOffset(1, 4, 8192),
                        target.receiveRegionRkey());
            } else {
                final long ring = HandshakeFlyweight.ringOffset(Math.min(attack.stream, 3), 8192);
                send.clear().add(1, WorkRequestOpcode.RDMA_WRITE_WITH_IMM, SendFlags.SIGNALED)
                    .sge(rogueMemory.address(), 64, rogueMemory.lkey())
                    .remote(target.receiveRegionAddress() + ring, target.receiveRegionRkey())
                    .immediate(rawImmediate(attack.stream, attack.advance));
            }
            rogue.postSend(send);
            if (attack.stream < 0) {
                // a stream's credit is read while it waits for some: the victim sends one frame on stream 1
                final ProtocolStream sending = victim.stream(1);
                sending.claim(8);
                sending.commit(ProtocolStream.WHOLE);
            }

            for (int i = 0; i < 1000 && victim.error() == null; i++) {
                victim.doWork(System.nanoTime());
                honest.doWork(System.nanoTime());
                honestClient.doWork(System.nanoTime());
            }
            assertThat(victim.error()).as("the victim's verdict on the rogue connection").contains(attack.expected);

            // the honest connection still carries messages both ways
            final ProtocolStream out = honestClient.stream(1);
            final int index = out.claim(8);
            out.buffer().putLong(index, 0xFEEDL);
            out.commit(ProtocolStream.WHOLE);
            final long[] seen = new long[1];
            for (int i = 0; i < 1000 && seen[0] == 0; i++) {
                honestClient.doWork(System.nanoTime());
                honest.doWork(System.nanoTime());
                honest.stream(1).poll((buffer, at, length, type, flags) -> seen[0] = buffer.getLong(at));
            }
            assertThat(seen[0]).isEqualTo(0xFEEDL);
            assertThat(honest.error()).isNull();

            rogue.close();
            cq.close();
            rogueMemory.close();
            victim.close();
            honest.close();
            honestClient.close();
        }
    }

    /** A handshake offering {@code memory} as the receive region, as an honest peer writes it. */
    private static byte[] handshake(final ProtocolOptions options, final MemoryRegion memory) {
        final byte[] privateData = new byte[HandshakeFlyweight.LENGTH];
        new HandshakeFlyweight().wrap(new UnsafeBuffer(privateData), 0).write(options.maxStreams(),
            options.ringCapacity(), options.maxMessageLength(), memory.rkey(), memory.address(), memory.length());
        return privateData;
    }

    /** An immediate as a hostile peer may make it: ImmediateCodec.encode asserts what an honest sender keeps to. */
    private static int rawImmediate(final int stream, final int advance) {
        return (stream << ImmediateCodec.ADVANCE_BITS) | (advance / ImmediateCodec.ADVANCE_UNIT);
    }

    @Test
    void aPeerOfAnotherVersionIsRefusedWithAReasonBothSidesRead() throws Exception {
        try (Listener listener = victimDevice.listen("versions")) {
            final CompletableFuture<Throwable> server = CompletableFuture.supplyAsync(() -> {
                final ConnectRequest request = listener.accept(Duration.ofSeconds(10));
                try {
                    ConnectionEstablishment.accept(victimDevice, request, OPTIONS);
                    return null;
                } catch (final ProtocolException ex) {
                    return ex;
                }
            });
            final MemoryRegion memory = rogueDevice.allocateRegion(OPTIONS.remoteRegionLength(),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            final byte[] handshake = handshake(OPTIONS, memory);
            new UnsafeBuffer(handshake).putShort(HandshakeFlyweight.VERSION_OFFSET, (short) (HandshakeFlyweight.VERSION + 1),
                HandshakeFlyweight.BYTE_ORDER);
            final CompletionQueue cq = rogueDevice.createCompletionQueue(16);
            assertThatThrownBy(() -> rogueDevice.connect("versions", QueuePairOptions.builder(cq, cq).build(),
                handshake, Duration.ofSeconds(10)))
                .satisfies(ex -> assertThat(RejectFlyweight.decode(
                    ((io.rdmareactive.spi.ConnectionRejectedException) ex).privateData()))
                    .as("the reason, whole, as the client reads it")
                    .isEqualTo("protocol version " + (HandshakeFlyweight.VERSION + 1) + " is not supported (this side speaks "
                        + HandshakeFlyweight.VERSION + ")"));
            assertThat(server.get()).hasMessageContaining("protocol version " + (HandshakeFlyweight.VERSION + 1)
                + " is not supported (this side speaks " + HandshakeFlyweight.VERSION + ")");
            cq.close();
            memory.close();
        }
    }
}
