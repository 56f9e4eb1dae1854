package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.agrona.concurrent.AtomicBuffer;
import org.junit.jupiter.api.Test;

class ProtocolConnectionTest {

    private static final ProtocolOptions SMALL = new ProtocolOptions(4, 8192, 1 << 20, Duration.ofSeconds(1),
        Duration.ofSeconds(5));

    @Test
    void messagesOfMixedSizesArriveOnceInOrderWithTheirBytesOnEveryStream() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL)) {
            final int streams = 3;
            final int perStream = 20_000;
            final SplittableRandom random = new SplittableRandom(42);
            final int[] sent = new int[streams + 1];
            final Receiver[] receivers = new Receiver[streams + 1];
            for (int s = 1; s <= streams; s++) {
                receivers[s] = new Receiver(s);
            }
            long backPressured = 0;
            while (true) {
                boolean progress = false;
                for (int s = 1; s <= streams; s++) {
                    // a burst per stream: write until the ring pushes back
                    while (sent[s] < perStream) {
                        final ProtocolStream stream = pair.client.stream(s);
                        final int length = random.nextInt(0, stream.maxPayload() - 12 + 1) >> random.nextInt(0, 8);
                        final int index = stream.claim(length + 12);
                        if (index == ProtocolStream.BACK_PRESSURED) {
                            backPressured++;
                            break;
                        }
                        Receiver.fill(stream.buffer(), index, s, sent[s], length);
                        stream.commit(ProtocolStream.WHOLE);
                        sent[s]++;
                        progress = true;
                    }
                }
                progress |= pair.pump() > 0;
                for (int s = 1; s <= streams; s++) {
                    while (pair.server.stream(s).poll(receivers[s])) {
                        progress = true;
                    }
                }
                assertThat(pair.server.error()).isNull();
                assertThat(pair.client.error()).isNull();
                boolean done = true;
                for (int s = 1; s <= streams; s++) {
                    done &= receivers[s].received == perStream;
                }
                if (done) {
                    break;
                }
                assertThat(progress).as("no progress: sent %s", java.util.Arrays.toString(sent)).isTrue();
            }
            for (int s = 1; s <= streams; s++) {
                assertThat(receivers[s].errors).as("stream %d", s).isEmpty();
            }
            assertThat(backPressured).as("an 8 KiB ring must push back on 60 000 messages").isPositive();
        }
    }

    @Test
    void aStreamWhoseConsumerStopsHoldsBackOnlyItsOwnProducer() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL)) {
            final ProtocolStream slow = pair.client.stream(1);
            final ProtocolStream fast = pair.client.stream(2);
            final Receiver fastReceiver = new Receiver(2);
            int slowSent = 0;
            int fastSent = 0;
            for (int round = 0; round < 5_000; round++) {
                final int slowIndex = slow.claim(100);
                if (slowIndex >= 0) {
                    Receiver.fill(slow.buffer(), slowIndex, 1, slowSent++, 88);
                    slow.commit(ProtocolStream.WHOLE);
                }
                final int fastIndex = fast.claim(100);
                if (fastIndex >= 0) {
                    Receiver.fill(fast.buffer(), fastIndex, 2, fastSent++, 88);
                    fast.commit(ProtocolStream.WHOLE);
                }
                pair.pump();
                while (pair.server.stream(2).poll(fastReceiver)) {
                    // the fast consumer keeps up; nobody reads stream 1
                }
            }
            assertThat(slowSent).as("the slow stream's producer is held back by its ring").isLessThan(8192 / 112 + 1);
            assertThat(fastSent).as("the fast stream is not").isEqualTo(5_000);
            assertThat(fastReceiver.received).isEqualTo(5_000);
            assertThat(fastReceiver.errors).isEmpty();
            // once the slow consumer reads, its producer moves again
            final Receiver slowReceiver = new Receiver(1);
            while (pair.server.stream(1).poll(slowReceiver)) {
                pair.pump();
            }
            pair.pump();
            assertThat(slowReceiver.received).isEqualTo(slowSent);
            assertThat(slow.claim(100)).isNotNegative();
        }
    }

    @Test
    void requestsCancelsAndTheEndOfAStreamReachTheOtherSideInOrder() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL)) {
            final ProtocolStream producer = pair.client.stream(2);
            final ProtocolStream consumer = pair.server.stream(2);
            assertThat(producer.peerDemand()).isZero();
            consumer.request(10);
            consumer.request(Long.MAX_VALUE); // unbounded demand is capped, never wraps
            pair.pump();
            assertThat(producer.peerDemand()).isEqualTo(Long.MAX_VALUE);

            final int index = producer.claim(4);
            producer.buffer().putInt(index, 77);
            producer.commit(ProtocolStream.WHOLE);
            assertThat(producer.error(3, "upstream failed: disk full")).isTrue();
            pair.pump();
            final List<String> seen = new ArrayList<>();
            final ErrorFrameFlyweight error = new ErrorFrameFlyweight();
            while (consumer.poll((buffer, at, length, type, flags) -> seen.add(switch (type) {
                case FrameHeaderFlyweight.DATA -> "data " + buffer.getInt(at);
                case FrameHeaderFlyweight.ERROR -> {
                    assertThat(consumer.checkFrame(buffer, at, length, type)).isEqualTo(FrameCheck.OK);
                    error.wrap(buffer, at - FrameHeaderFlyweight.HEADER_LENGTH);
                    yield "error " + error.errorCode() + " " + error.message() + " on " + error.streamId();
                }
                case FrameHeaderFlyweight.COMPLETE -> "complete";
                default -> "type " + type;
            }))) {
                pair.pump();
            }
            assertThat(seen).containsExactly("data 77", "error 3 upstream failed: disk full on 2");

            assertThat(producer.isCancelledByPeer()).isFalse();
            consumer.cancel();
            pair.pump();
            assertThat(producer.isCancelledByPeer()).isTrue();
            assertThat(pair.client.stream(3).complete()).isTrue();
            pair.pump();
            final List<Short> types = new ArrayList<>();
            final ProtocolStream ended = pair.server.stream(3);
            ended.poll((buffer, at, length, type, flags) -> {
                types.add(type);
                assertThat(ended.checkFrame(buffer, at, length, type)).isEqualTo(FrameCheck.OK);
                final StreamControlFlyweight complete = new StreamControlFlyweight()
                    .wrap(buffer, at - FrameHeaderFlyweight.HEADER_LENGTH);
                assertThat(complete.streamId()).isEqualTo(3);
                assertThat(complete.use()).isZero();
            });
            assertThat(types).containsExactly(FrameHeaderFlyweight.COMPLETE);
            assertThat(pair.server.error()).isNull();
            assertThat(pair.client.error()).isNull();
        }
    }

    @Test
    void aControlFrameRewrittenAfterItsCheckEndsTheConnection() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL)) {
            // play the peer: a KEEPALIVE arrives in the server's control ring and passes its check on arrival...
            final StreamReceiveRing control = pair.server.slot(0).receiveRing();
            new KeepaliveFlyweight().wrap(control.buffer(), 0).write(1, 0);
            assertThat(control.onAdvance(KeepaliveFlyweight.LENGTH)).isEqualTo(ProtocolError.NONE);
            // ...and is rewritten before the driver reads it
            control.buffer().putInt(0, 1 << 20, FrameHeaderFlyweight.BYTE_ORDER);

            pair.server.doWork(System.nanoTime());

            assertThat(pair.server.error()).as("a corrupted control stream would stall every stream")
                .isEqualTo("the peer wrote a malformed frame on stream 0 (a checked frame changed before it was read)");
        }
    }

    @Test
    void openAndCompleteAreCheckedAgainstTheUseOfTheStreamWhereTheyAreRead() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL)) {
            final ProtocolStream opener = pair.client.stream(3);
            final ProtocolStream server = pair.server.stream(3);
            final List<String> seen = new ArrayList<>();
            final FrameConsumer check = (buffer, at, length, type, flags) ->
                seen.add(type + ":" + FrameCheck.describe(server.checkFrame(buffer, at, length, type)));
            final String ok = FrameCheck.describe(FrameCheck.OK);
            final String badUse = FrameCheck.describe(FrameCheck.BAD_USE);

            opener.beginUse(0, 0);
            assertThat(opener.open(OpenFrameFlyweight.REQUEST_STREAM)).isTrue(); // OPEN of use 1
            assertThat(opener.complete()).isTrue(); // COMPLETE of use 1
            pair.pump();
            server.poll(check); // the OPEN begins the next use, 1
            server.beginUse(0, 0);
            server.poll(check); // the COMPLETE ends use 1, the current one
            assertThat(seen).containsExactly(FrameHeaderFlyweight.OPEN + ":" + ok,
                FrameHeaderFlyweight.COMPLETE + ":" + ok);

            seen.clear();
            opener.beginUse(0, 0);
            opener.beginUse(0, 0);
            assertThat(opener.open(OpenFrameFlyweight.CHANNEL)).isTrue(); // OPEN of use 3, not 2
            assertThat(opener.complete()).isTrue(); // COMPLETE of use 3 while the server is at use 1
            pair.pump();
            server.poll(check);
            server.poll(check);
            assertThat(seen).containsExactly(FrameHeaderFlyweight.OPEN + ":" + badUse,
                FrameHeaderFlyweight.COMPLETE + ":" + badUse);
            assertThat(pair.server.error()).as("only where they are read are uses known").isNull();
        }
    }

    @Test
    void anErrorMessageIsCutToWhatOneFrameOfTheRingHolds() {
        final ProtocolOptions tiny = new ProtocolOptions(2, 4096, 4096, Duration.ofSeconds(1), Duration.ofSeconds(5));
        try (ConnectionPair pair = ConnectionPair.open(tiny)) {
            final ProtocolStream producer = pair.client.stream(1);
            final String message = "\u00e9".repeat(2000); // 4000 bytes of UTF-8; a frame of a 4 KiB ring holds 1016
            assertThat(producer.error(7, message)).isTrue();
            pair.pump();
            final ProtocolStream consumer = pair.server.stream(1);
            final List<String> seen = new ArrayList<>();
            assertThat(consumer.poll((buffer, at, length, type, flags) -> {
                assertThat(type).isEqualTo(FrameHeaderFlyweight.ERROR);
                assertThat(consumer.checkFrame(buffer, at, length, type)).isEqualTo(FrameCheck.OK);
                seen.add(new ErrorFrameFlyweight().wrap(buffer, at - FrameHeaderFlyweight.HEADER_LENGTH).message());
            })).isTrue();
            final int maxMessage = producer.maxPayload() + FrameHeaderFlyweight.HEADER_LENGTH
                - ErrorFrameFlyweight.MESSAGE_OFFSET;
            assertThat(seen).containsExactly("\u00e9".repeat(maxMessage / 2));
            assertThat(pair.server.error()).isNull();
        }
    }

    @Test
    void aPeerThatFallsSilentIsDeclaredDeadAfterTheLivenessTimeout() {
        final ProtocolOptions quick = new ProtocolOptions(2, 4096, 4096, Duration.ofMillis(20), Duration.ofMillis(200));
        try (ConnectionPair pair = ConnectionPair.open(quick)) {
            for (int i = 0; i < 20; i++) {
                pair.pump();
            }
            assertThat(pair.server.error()).isNull();
            // the client stops its duty cycle: no keepalive reaches the server any more
            final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (pair.server.error() == null && System.nanoTime() < deadline) {
                pair.server.doWork(System.nanoTime());
                Thread.onSpinWait();
            }
            assertThat(pair.server.error()).contains("no word from the peer").contains("liveness timeout 200 ms");
        }
    }

    @Test
    void aPauseOfThisSideLongerThanTheLivenessTimeoutIsNotTakenForThePeersDeath() throws InterruptedException {
        final ProtocolOptions quick = new ProtocolOptions(2, 4096, 4096, Duration.ofMillis(20), Duration.ofMillis(200));
        try (ConnectionPair pair = ConnectionPair.open(quick)) {
            for (int i = 0; i < 20; i++) {
                pair.pump();
            }
            // both sides stop, as in a collector's stop-the-world pause of a process that holds both ends
            Thread.sleep(3 * 200);
            pair.server.doWork(System.nanoTime()); // runs before the client has sent anything again
            assertThat(pair.server.error()).as("the server's verdict right after its own pause").isNull();
            for (int i = 0; i < 20; i++) {
                pair.pump();
            }
            assertThat(pair.server.error()).as("once both run again").isNull();
            assertThat(pair.client.error()).as("the client").isNull();
        }
    }

    /** Checks each message: stream, sequence, length, CRC32C of the payload. */
    static final class Receiver implements FrameConsumer {
        final int stream;
        int received;
        final List<String> errors = new ArrayList<>();

        Receiver(final int stream) {
            this.stream = stream;
        }

        static void fill(final org.agrona.MutableDirectBuffer buffer, final int index, final int stream,
                         final int sequence, final int length) {
            buffer.putInt(index, sequence);
            for (int i = 0; i < length; i++) {
                buffer.putByte(index + 12 + i, (byte) (sequence * 7 + stream * 13 + i));
            }
            final CRC32C crc = new CRC32C();
            for (int i = 0; i < length; i++) {
                crc.update(buffer.getByte(index + 12 + i));
            }
            buffer.putInt(index + 4, length);
            buffer.putInt(index + 8, (int) crc.getValue());
        }

        @Override
        public void onFrame(final AtomicBuffer buffer, final int index, final int length, final short type,
                            final byte flags) {
            final int sequence = buffer.getInt(index);
            final int payload = buffer.getInt(index + 4);
            final int expectedCrc = buffer.getInt(index + 8);
            final CRC32C crc = new CRC32C();
            for (int i = 0; i < payload; i++) {
                crc.update(buffer.getByte(index + 12 + i));
            }
            if (type != FrameHeaderFlyweight.DATA || flags != ProtocolStream.WHOLE || sequence != received
                || payload != length - 12 || (int) crc.getValue() != expectedCrc) {
                errors.add("stream " + stream + " message " + received + ": type " + type + " flags " + flags
                    + " sequence " + sequence + " length " + length + "/" + payload);
            }
            received++;
        }
    }
}
