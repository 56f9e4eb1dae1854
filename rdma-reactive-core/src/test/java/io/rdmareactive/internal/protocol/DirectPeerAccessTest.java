package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Direct peer access on shared memory: both sides of a pair write their data streams straight into the peer's
 * receive rings and publish each stream's position in the peer's line; the receiver checks a published position as
 * it checks an immediate's advance, so a hostile peer's position ends the connection with a reason.
 */
class DirectPeerAccessTest {

    private static final ProtocolOptions SMALL = new ProtocolOptions(4, 8192, 1 << 20,
        ProtocolOptions.DEFAULTS.keepaliveInterval(), ProtocolOptions.DEFAULTS.livenessTimeout());
    private static final int PUBLISHED_OF_STREAM_1 = ConnectionLayout.LINE + ConnectionLayout.PUBLISHED_OFFSET;

    @Test
    void sharedMemoryPeersAgreeOnDirectAccessAndDeliverEveryMessageInOrder() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL)) {
            assertThat(pair.client.sendsDirect()).as("the client writes into the server's rings").isTrue();
            assertThat(pair.server.sendsDirect()).as("the server writes into the client's rings").isTrue();
            final ProtocolStream out = pair.client.stream(1);
            final ProtocolConnectionTest.Receiver receiver = new ProtocolConnectionTest.Receiver(1);
            int sent = 0;
            for (int round = 0; round < 20_000 && receiver.received < 5_000; round++) {
                final int index = sent < 5_000 ? out.claim(100) : -1;
                if (index >= 0) {
                    ProtocolConnectionTest.Receiver.fill(out.buffer(), index, 1, sent++, 88);
                    out.commit(ProtocolStream.WHOLE);
                }
                pair.pump();
                while (pair.server.stream(1).poll(receiver)) {
                    // read as it comes
                }
            }
            assertThat(pair.client.error()).isNull();
            assertThat(pair.server.error()).isNull();
            assertThat(receiver.received).isEqualTo(5_000);
            assertThat(receiver.errors).isEmpty();
        }
    }

    /**
     * A producer's commit to a stream its loop watches marks nothing and, while the peer keeps looking, writes nothing
     * into the peer's line; the loop stops watching once the peer consumed everything, and a commit after that must
     * mark and ring again. Bursts with idle loops between them cross that edge each time: every message arrives, and
     * every byte's credit comes back.
     */
    @Test
    void commitsAfterTheLoopsStoppedWatchingAreSeenAndCredited() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL)) {
            final ProtocolStream out = pair.client.stream(1);
            final ProtocolConnectionTest.Receiver receiver = new ProtocolConnectionTest.Receiver(1);
            int sent = 0;
            for (int burst = 0; burst < 200; burst++) {
                final int target = sent + 1 + burst % 7;
                for (int round = 0; round < 1_000 && receiver.received < target; round++) {
                    final int index = sent < target ? out.claim(40) : -1;
                    if (index >= 0) {
                        ProtocolConnectionTest.Receiver.fill(out.buffer(), index, 1, sent++, 28);
                        out.commit(ProtocolStream.WHOLE);
                    }
                    pair.pump();
                    while (pair.server.stream(1).poll(receiver)) {
                        // read as it comes
                    }
                }
                assertThat(receiver.received).as("burst %d", burst).isEqualTo(target);
                for (int idle = 0; idle < 10; idle++) {
                    pair.pump(); // credit goes back; both loops stop watching the stream
                }
                assertThat(pair.client.isWatched(1)).as("the sender's loop watches an idle stream").isFalse();
                if (burst % 3 == 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(100_000); // past the look-flag's hold
                }
            }
            assertThat(pair.client.error()).isNull();
            assertThat(pair.server.error()).isNull();
            assertThat(receiver.errors).isEmpty();
            assertThat(out.sendRing().free()).as("every byte's credit came back").isEqualTo(8192);
        }
    }

    /**
     * A close that cannot wait any longer for the peer: without direct peer access, what was committed and not
     * confirmed in the peer's memory (here: beyond the peer's receive grant, the peer never running) ends the
     * connection with an error that counts the messages, so the close does not report success. With direct peer
     * access a commit is in the peer's ring, and nothing is counted.
     */
    @Test
    void aCloseThatCouldNotFlushNamesTheMessagesThatDidNotReachThePeer() {
        final ProtocolOptions options = new ProtocolOptions(4, 65536, 1 << 20,
            ProtocolOptions.DEFAULTS.keepaliveInterval(), ProtocolOptions.DEFAULTS.livenessTimeout());
        try (ConnectionPair pair = ConnectionPair.open(options, false)) {
            assertThat(pair.client.sendsDirect()).isFalse();
            final ProtocolStream out = pair.client.stream(1);
            for (int i = 0; i < 300; i++) {
                final int index = out.claim(20);
                assertThat(index).as("room for message %d", i).isNotNegative();
                ProtocolConnectionTest.Receiver.fill(out.buffer(), index, 1, i, 8);
                out.commit(ProtocolStream.WHOLE);
                pair.client.doWork(System.nanoTime()); // one write each; the server never runs
            }
            assertThat(pair.client.isFlushed()).isFalse();
            pair.client.closingUnflushed(5_000);
            final java.util.regex.Matcher counted = java.util.regex.Pattern
                .compile("closed with (\\d+) message\\(s\\) \\((\\d+) bytes, on 1 stream\\(s\\)\\) committed to send "
                    + "that did not reach the peer's memory within 5000 ms").matcher(pair.client.error());
            assertThat(counted.find()).as(pair.client.error()).isTrue();
            final int messages = Integer.parseInt(counted.group(1));
            assertThat(messages).as("beyond the peer's grant of %d writes", ProtocolConnection.RECEIVE_DEPTH)
                .isBetween(300 - ProtocolConnection.RECEIVE_DEPTH, 300);
            assertThat(Long.parseLong(counted.group(2))).as("bytes: the same frame for each message")
                .isEqualTo(messages * (long) FrameHeaderFlyweight.alignedLength(FrameHeaderFlyweight.HEADER_LENGTH + 20));
        }
        try (ConnectionPair pair = ConnectionPair.open(options, false)) {
            // a connection that fails (here: as a failed post would fail it) counts the same in its error
            final ProtocolStream out = pair.client.stream(1);
            for (int i = 0; i < 300; i++) {
                final int index = out.claim(20);
                ProtocolConnectionTest.Receiver.fill(out.buffer(), index, 1, i, 8);
                out.commit(ProtocolStream.WHOLE);
                pair.client.doWork(System.nanoTime());
            }
            pair.client.fail("posting to the queue pair failed");
            assertThat(pair.client.error()).matches("posting to the queue pair failed; \\d+ message\\(s\\) \\(\\d+ bytes, "
                + "on 1 stream\\(s\\)\\) committed to send had not been seen to reach the peer's memory and may be lost");
        }
        try (ConnectionPair pair = ConnectionPair.open(SMALL)) {
            final ProtocolStream out = pair.client.stream(1);
            final int index = out.claim(20);
            ProtocolConnectionTest.Receiver.fill(out.buffer(), index, 1, 0, 8);
            out.commit(ProtocolStream.WHOLE);
            pair.client.closingUnflushed(5_000);
            assertThat(pair.client.error()).as("direct: the commit is in the peer's ring").isNull();
        }
    }

    @Test
    void aPublishedPositionBeyondTheRoomGivenEndsTheConnection() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL)) {
            pair.server.peerWrittenLines().putLongVolatile(PUBLISHED_OF_STREAM_1, 3L * 8192);
            pair.pump();
            assertThat(pair.server.error()).contains("beyond the room it was given").contains("stream 1");
        }
    }

    @Test
    void aPublishedPositionThatGoesBackwardsEndsTheConnection() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL)) {
            pair.server.peerWrittenLines().putLongVolatile(PUBLISHED_OF_STREAM_1, -64);
            pair.pump();
            assertThat(pair.server.error()).contains("stream 1").contains("published position -64");
        }
    }

    @Test
    void aPublishedPositionOverFramesThatFailTheirCheckEndsTheConnection() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL)) {
            // 64 bytes of zeros: no frame has length 0
            pair.server.peerWrittenLines().putLongVolatile(PUBLISHED_OF_STREAM_1, 64);
            pair.pump();
            assertThat(pair.server.error()).contains("malformed").contains("stream 1");
        }
    }
}
