package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The protocol between two JVMs over the shared-memory provider. */
class MultiProcessProtocolTest {

    static final ProtocolOptions OPTIONS = new ProtocolOptions(4, 64 * 1024, 1 << 20, Duration.ofMillis(200),
        Duration.ofSeconds(3));
    static final int HEADER = 20;

    @ShmTestDirectory
    private Path directory;
    private ChildJvm child;

    @AfterEach
    void cleanUp() {
        if (child != null) {
            child.close();
        }
    }

    @Test
    void aMillionMessagesCrossBetweenTwoProcessesOnceInOrderWithTheirBytes() throws Exception {
        final int streams = 3;
        final long count = 1_000_000;
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
             Listener listener = device.listen("mp")) {
            startChild("produce", "mp", String.valueOf(streams), String.valueOf(count));
            final ConnectRequest request = listener.accept(Duration.ofSeconds(30));
            assertThat(request).as("the producer connected; it said %s", child.output()).isNotNull();
            try (ProtocolConnection connection = ConnectionEstablishment.accept(device, request, OPTIONS)) {
                final Checker[] checkers = new Checker[streams + 1];
                for (int s = 1; s <= streams; s++) {
                    checkers[s] = new Checker(s);
                }
                final IdleStrategy idle = new BackoffIdleStrategy(10, 10, 1_000, 1_000_000);
                long received = 0;
                final long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
                while (received < count) {
                    assertThat(connection.error()).as("connection error; the producer said %s", child.output()).isNull();
                    assertThat(System.nanoTime()).as("still receiving after 3 minutes: %d of %d", received, count)
                        .isLessThan(deadline);
                    int work = connection.doWork(System.nanoTime());
                    device.pollEvents(connection::onEvent, 16);
                    for (int s = 1; s <= streams; s++) {
                        for (int i = 0; i < 256 && connection.stream(s).poll(checkers[s]); i++) {
                            received++;
                            work++;
                        }
                    }
                    idle.idle(work);
                }
                for (int s = 1; s <= streams; s++) {
                    assertThat(checkers[s].errors).as("stream %d", s).isEmpty();
                }
                long total = 0;
                for (int s = 1; s <= streams; s++) {
                    total += checkers[s].next;
                }
                assertThat(total).isEqualTo(count);
                for (int i = 0; i < 100; i++) {
                    connection.doWork(System.nanoTime()); // return the last credit
                }
            }
            assertThat(child.awaitExit(Duration.ofSeconds(30))).as("the producer's exit code; it said %s",
                child.output()).isZero();
        }
    }

    @Test
    void aPeerKilledMidStreamEndsTheConnectionWithAnErrorThatNamesTheCause() throws Exception {
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
             Listener listener = device.listen("victim")) {
            startChild("hang", "victim");
            final ConnectRequest request = listener.accept(Duration.ofSeconds(30));
            assertThat(request).as("the peer connected; it said %s", child.output()).isNotNull();
            try (ProtocolConnection connection = ConnectionEstablishment.accept(device, request, OPTIONS)) {
                final IdleStrategy idle = new BackoffIdleStrategy(10, 10, 1_000, 1_000_000);
                for (int i = 0; i < 1000; i++) {
                    idle.idle(connection.doWork(System.nanoTime()));
                }
                assertThat(connection.error()).isNull();
                child.kill(); // SIGKILL
                final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (connection.error() == null && System.nanoTime() < deadline) {
                    idle.idle(connection.doWork(System.nanoTime()) + device.pollEvents(connection::onEvent, 16));
                }
                assertThat(connection.error()).as("the error after the peer was killed")
                    .isNotNull()
                    .containsAnyOf("went away", "was killed", "no word from the peer");
            }
        }
    }

    private void startChild(final String... args) {
        final List<String> arguments = new ArrayList<>(List.of(args[0], directory.toString()));
        arguments.addAll(List.of(args).subList(1, args.length));
        child = ChildJvmLauncher.of(ProtocolPeer.class).jvmOptions("-Xmx256m").args(arguments).start();
    }

    /** Payload lengths: mostly small, some up to the largest a frame holds. */
    static int length(final SplittableRandom random, final int maxPayload) {
        final int max = maxPayload - HEADER;
        return switch (random.nextInt(4)) {
            case 0 -> random.nextInt(0, 16);
            case 1 -> random.nextInt(0, 256);
            case 2 -> random.nextInt(0, 4096);
            default -> random.nextInt(0, max + 1);
        };
    }

    /** Writes stream, sequence, length, CRC32C, then the payload. */
    static void fill(final MutableDirectBuffer buffer, final int index, final int stream, final long sequence,
                     final int length) {
        final int payload = index + HEADER;
        for (int i = 0; i < length; i++) {
            buffer.putByte(payload + i, (byte) (sequence * 31 + stream + i));
        }
        buffer.putInt(index, stream);
        buffer.putLong(index + 4, sequence);
        buffer.putInt(index + 12, length);
        buffer.putInt(index + 16, crc(buffer, payload, length));
    }

    static int crc(final org.agrona.DirectBuffer buffer, final int index, final int length) {
        final CRC32C crc = new CRC32C();
        for (int i = 0; i < length; i++) {
            crc.update(buffer.getByte(index + i));
        }
        return (int) crc.getValue();
    }

    /** Checks stream, sequence (once, in order), length and checksum of each message. */
    static final class Checker implements FrameConsumer {
        final int stream;
        long next;
        final List<String> errors = new ArrayList<>();

        Checker(final int stream) {
            this.stream = stream;
        }

        @Override
        public void onFrame(final AtomicBuffer buffer, final int index, final int length, final short type,
                            final byte flags) {
            final int payloadLength = buffer.getInt(index + 12);
            if (errors.size() < 10 && (buffer.getInt(index) != stream || buffer.getLong(index + 4) != next
                || payloadLength != length - HEADER || crc(buffer, index + HEADER, payloadLength)
                != buffer.getInt(index + 16))) {
                errors.add("stream " + stream + " expected message " + next + ", got stream " + buffer.getInt(index)
                    + " sequence " + buffer.getLong(index + 4) + " length " + length);
            }
            next++;
        }
    }
}
