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
