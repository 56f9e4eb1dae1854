package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaException;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.SendWorkRequest;
import io.rdmareactive.spi.WorkRequestOpcode;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The end-to-end half of the fuzz ({@link ProtocolFuzzer} is the in-process half): rogue peers over the
 * shared-memory provider, each of which speaks the handshake (or an absurd one) and then RDMA-writes seeded garbage
 * into the memory it was given: random and mutated frames at random places of the rings, credit and grant words
 * moved anywhere, immediates with any stream id and advance. One rogue in four also writes extreme values into the
 * shared files: its own queue-pair file and region table, and, half of those times, the victim's queue-pair file
 * (the indexes by which the rogue takes the victim's receives). After each, the victim's driver has thrown nothing,
 * has either ended that connection with an error or still stands, and its honest connection, open throughout,
 * still carries a message each way. {@code -Dfuzz.connections} rogue connections (60 by default) from
 * {@code -Dfuzz.seed}.
 */
class RoguePeerFuzzTest {

    private static final ProtocolOptions OPTIONS = new ProtocolOptions(4, 8192, 1 << 20, Duration.ofSeconds(1),
        Duration.ofSeconds(5));

    @Test
    void rogueConnectionsEndWithAnErrorOrDoNoHarmAndTheHonestConnectionCarriesOn(@ShmTestDirectory final Path directory)
        throws Exception {
        final int connections = Integer.getInteger("fuzz.connections", 60);
        final long seed = Long.getLong("fuzz.seed", 20261202L);
        final DeviceOptions deviceOptions = DeviceOptions.builder().directory(directory).build();
        int ended = 0;
        int refused = 0;
        int standing = 0;
        int crashes = 0;
        String firstCrash = null;
        try (RdmaDevice victimDevice = RdmaProviders.named("shm").open(deviceOptions);
             RdmaDevice rogueDevice = RdmaProviders.named("shm").open(deviceOptions);
             Listener listener = victimDevice.listen("victim")) {
            final CompletableFuture<ProtocolConnection> honestServer = CompletableFuture.supplyAsync(() ->
                ConnectionEstablishment.accept(victimDevice, listener.accept(Duration.ofSeconds(10)), OPTIONS));
            final ProtocolConnection honestClient = ConnectionEstablishment.connect(rogueDevice, "victim", OPTIONS,
                Duration.ofSeconds(10));
            final ProtocolConnection honest = honestServer.get(10, TimeUnit.SECONDS);
            long honestSent = 0;
            for (int c = 0; c < connections; c++) {
                final SplittableRandom random = new SplittableRandom(seed + c);
                final String verdict;
                try {
                    verdict = attack(random, victimDevice, rogueDevice, listener, directory, deviceOptions);
                } catch (final Throwable crash) {
                    crashes++;
                    if (firstCrash == null) {
                        firstCrash = "seed " + (seed + c) + ": " + crash;
                    }
                    continue;
                }
                switch (verdict) {
                    case "ended" -> ended++;
                    case "refused" -> refused++;
                    default -> standing++;
                }
                // the honest connection carries on
                final long value = 0xC0FFEE00L + honestSent++;
                final ProtocolStream out = honestClient.stream(1);
                final int index = out.claim(8);
                assertThat(index).as("room on the honest stream").isNotNegative();
                out.buffer().putLong(index, value);
                out.commit(ProtocolStream.WHOLE);
                final long[] seen = {-1};
                for (int i = 0; i < 10_000 && seen[0] < 0; i++) {
                    honestClient.doWork(System.nanoTime());
                    honest.doWork(System.nanoTime());
                    honest.stream(1).poll((buffer, at, length, type, flags) -> seen[0] = buffer.getLong(at));
                }
                assertThat(seen[0]).as("the honest message after rogue " + c).isEqualTo(value);
                assertThat(honest.error()).isNull();
                assertThat(honestClient.error()).isNull();
            }
            System.out.println("rogue peers: connections=" + connections + " ended=" + ended + " refused=" + refused
                + " standing=" + standing + " crashes=" + crashes + " seed=" + seed);
            honest.close();
            honestClient.close();
        }
        assertThat(crashes).as("crashes; the first: " + firstCrash).isZero();
        assertThat(ended).as("rogue connections the victim ended").isPositive();
    }

    /** One rogue connection; returns "ended", "refused" or "standing". */
    private static String attack(final SplittableRandom random, final RdmaDevice victimDevice,
                                 final RdmaDevice sharedRogueDevice, final Listener listener, final Path directory,
                                 final DeviceOptions deviceOptions) throws Exception {
        // one rogue in four also scribbles over the files it shares with the victim (its queue pair's indexes, its
        // region table): on a device of its own, so that the honest connection's entries stay intact
        final boolean scribbles = random.nextInt(4) == 0;
        final RdmaDevice ownDevice = scribbles ? RdmaProviders.named("shm").open(deviceOptions) : null;
        try {
            return attack(random, victimDevice, scribbles ? ownDevice : sharedRogueDevice, listener,
                scribbles ? directory : null);
        } finally {
            if (ownDevice != null) {
                ownDevice.close();
            }
        }
    }

    private static String attack(final SplittableRandom random, final RdmaDevice victimDevice,
                                 final RdmaDevice rogueDevice, final Listener listener, final Path scribbleIn)
        throws Exception {
        final CompletableFuture<ProtocolConnection> victimSide = CompletableFuture.supplyAsync(() -> {
            final ConnectRequest request = listener.accept(Duration.ofSeconds(10));
            try {
                return ConnectionEstablishment.accept(victimDevice, request, OPTIONS);
            } catch (final ProtocolException refused) {
                return null;
            }
        });
        final MemoryRegion rogueMemory = rogueDevice.allocateRegion(OPTIONS.remoteRegionLength(),
            Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        final CompletionQueue cq = rogueDevice.createCompletionQueue(64);
        QueuePair rogue = null;
        ProtocolConnection victim = null;
        try {
            final byte[] handshake = handshake(rogueMemory);
            final boolean absurd = random.nextInt(8) == 0;
            if (absurd) {
                final UnsafeBuffer buffer = new UnsafeBuffer(handshake);
                final int[] offsets = {HandshakeFlyweight.MAX_STREAMS_OFFSET, HandshakeFlyweight.RING_CAPACITY_OFFSET,
                    HandshakeFlyweight.MAX_MESSAGE_LENGTH_OFFSET, HandshakeFlyweight.RECEIVE_REGION_LENGTH_OFFSET,
                    HandshakeFlyweight.FLAGS_OFFSET, HandshakeFlyweight.MAGIC_OFFSET};
                final int[] values = {0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 3, 1 << 30, 65535};
                buffer.putInt(offsets[random.nextInt(offsets.length)], values[random.nextInt(values.length)],
                    HandshakeFlyweight.BYTE_ORDER);
            }
            try {
                rogue = rogueDevice.connect("victim", QueuePairOptions.builder(cq, cq).build(), handshake,
                    Duration.ofSeconds(10));
            } catch (final RdmaException rejected) {
                assertThat(victimSide.get(10, TimeUnit.SECONDS)).as("a refused victim side").isNull();
                return "refused";
            }
            victim = victimSide.get(10, TimeUnit.SECONDS);
            if (victim == null) {
                return "refused";
            }
            final HandshakeFlyweight target = new HandshakeFlyweight()
                .wrap(new UnsafeBuffer(rogue.peerPrivateData()), 0);
            victim.doWork(System.nanoTime());
            if (scribbleIn != null) {
                scribble(random, scribbleIn, rogue.localEndpoint());
                if (random.nextBoolean()) {
                    // the victim's own queue-pair file, which the rogue maps to take its receives: its indexes too
                    scribble(random, scribbleIn, rogue.peerEndpoint(), false);
                }
            }
            final int writes = 1 + random.nextInt(6);
            final SendWorkRequest send = rogue.newSendRequest(1);
            final UnsafeBuffer scratch = new UnsafeBuffer(rogueMemory.buffer(), 0, 8192);
            for (int w = 0; w < writes && !victim.isTerminated(); w++) {
                final int length = 8 * (1 + random.nextInt(64));
                fill(random, scratch, length);
                final long remoteOffset = place(random, target);
                final boolean withImmediate = random.nextInt(3) != 0;
                send.clear().add(w, withImmediate ? WorkRequestOpcode.RDMA_WRITE_WITH_IMM : WorkRequestOpcode.RDMA_WRITE,
                        SendFlags.SIGNALED)
                    .sge(rogueMemory.address(), length, rogueMemory.lkey())
                    .remote(target.receiveRegionAddress() + remoteOffset, target.receiveRegionRkey());
                if (withImmediate) {
                    send.immediate(random.nextInt(4) == 0 ? random.nextInt()
                        : (random.nextInt(6) << ImmediateCodec.ADVANCE_BITS) | (random.nextInt(4096) / 8));
                }
                rogue.postSend(send);
                for (int i = 0; i < 50; i++) {
                    victim.doWork(System.nanoTime());
                    cq.poll(completion -> { }, 16);
                }
                // the victim's consumer reads what was accepted, as an application would
                for (int s = 1; s < victim.options().maxStreams() && !victim.isTerminated(); s++) {
                    final ProtocolStream stream = victim.stream(s);
                    for (int f = 0; f < 16 && stream.poll((buffer, at, len, type, flags) -> { }); f++) {
                        victim.doWork(System.nanoTime());
                    }
                }
            }
            return victim.error() != null ? "ended" : "standing";
        } finally {
            if (rogue != null) {
                rogue.close();
            }
            if (victim != null) {
                for (int i = 0; i < 10; i++) {
                    victim.doWork(System.nanoTime());
                }
                victim.close();
            }
            cq.close();
            rogueMemory.close();
        }
    }

    /**
     * Writes boundary values and garbage at random places of the rogue's queue-pair file and region table, which the
     * victim reads (receive-queue indexes, region bases, lengths and keys): as a same-user peer can.
     *
     * @param endpoint the rogue queue pair's endpoint: its device id, a zero byte, its number (big-endian)
     */
    private static void scribble(final SplittableRandom random, final Path directory, final byte[] endpoint)
        throws java.io.IOException {
        scribble(random, directory, endpoint, true);
    }

    /**
     * Writes extreme or random longs at random places of an endpoint's queue-pair file (its state, its producer and
     * consumer indexes among them) and, with {@code regionTable}, of its device's region table.
     */
    private static void scribble(final SplittableRandom random, final Path directory, final byte[] endpoint,
                                 final boolean regionTable) throws java.io.IOException {
        final String deviceId = new String(endpoint, 0, endpoint.length - 5, StandardCharsets.UTF_8);
        final int number = java.nio.ByteBuffer.wrap(endpoint, endpoint.length - 4, 4).getInt();
        final long[] values = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE, 1L << 40};
        final Path queuePair = directory.resolve(deviceId + ".qp" + number);
        for (final Path file : regionTable ? List.of(queuePair, directory.resolve(deviceId + ".mrt"))
            : List.of(queuePair)) {
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
                final java.nio.MappedByteBuffer map = channel.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0,
                    channel.size());
                final int places = 1 + random.nextInt(8);
                for (int i = 0; i < places; i++) {
                    final int at = 8 * random.nextInt((int) (channel.size() / 8));
                    map.putLong(at, random.nextBoolean() ? values[random.nextInt(values.length)] : random.nextLong());
                }
                if (file.equals(queuePair) && random.nextBoolean()) {
                    // a queue-pair file's producer and consumer indexes (at 128 and 256), named on purpose
                    map.putLong(random.nextBoolean() ? 128 : 256, values[random.nextInt(values.length)]);
                }
            }
        }
    }

    /** Frames (well-formed, mutated) or garbage, {@code length} bytes. */
    private static void fill(final SplittableRandom random, final UnsafeBuffer scratch, final int length) {
        scratch.setMemory(0, length, (byte) 0);
        switch (random.nextInt(4)) {
            case 0 -> {
                for (int i = 0; i < length; i++) {
                    scratch.putByte(i, (byte) random.nextInt());
                }
            }
            case 1 -> CheckedWord.write(scratch, 0, random.nextInt(3) == 0 ? random.nextLong()
                : 8L * random.nextInt(4096)); // a credit or grant word, anywhere it lands
            default -> {
                int at = 0;
                while (at + 32 <= length) {
                    final int frame = 8 * (1 + random.nextInt(4));
                    final short[] types = {0, 1, 2, 3, 4, 5, 6, 7, 8, 99};
                    FrameHeaderFlyweight.write(scratch, at, random.nextInt(6) == 0 ? random.nextInt() : frame,
                        types[random.nextInt(types.length)], random.nextInt(3) == 0 ? random.nextInt(256) : 0);
                    scratch.putInt(at + 8, random.nextInt(6) - 1, FrameHeaderFlyweight.BYTE_ORDER);
                    scratch.putInt(at + 12, random.nextInt(3) - 1, FrameHeaderFlyweight.BYTE_ORDER);
                    scratch.putLong(at + 16, random.nextInt(3) - 1, FrameHeaderFlyweight.BYTE_ORDER);
                    at += frame;
                }
            }
        }
    }

    /** Where in the victim's receive region the write lands: a ring, a credit line, or anywhere. */
    private static long place(final SplittableRandom random, final HandshakeFlyweight target) {
        final int streams = target.maxStreams();
        final int capacity = target.ringCapacity();
        return switch (random.nextInt(3)) {
            case 0 -> HandshakeFlyweight.ringOffset(random.nextInt(streams), capacity) + 8L * random.nextInt(
                capacity / 8 - 64);
            case 1 -> HandshakeFlyweight.creditOffset(random.nextInt(streams), streams, capacity)
                + 16L * random.nextInt(3);
            default -> 8L * random.nextInt((int) ((HandshakeFlyweight.requiredRegionLength(streams, capacity) - 512)
                / 8));
        };
    }

    private static byte[] handshake(final MemoryRegion memory) {
        final byte[] privateData = new byte[HandshakeFlyweight.LENGTH];
        new HandshakeFlyweight().wrap(new UnsafeBuffer(privateData), 0).write(OPTIONS.maxStreams(),
            OPTIONS.ringCapacity(), OPTIONS.maxMessageLength(), memory.rkey(), memory.address(), memory.length());
        return privateData;
    }
}
