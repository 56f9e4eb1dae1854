package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Parking a connection (its loop stops polling it) and waking it through its doorbell, on a shared-memory pair with
 * direct peer access driven by the test's thread: a parked connection misses nothing, whoever gives it work rings its
 * doorbell (a producer or consumer of this side, the peer's producers and posts), and it refuses to park while work
 * could go unseen. The event loop's side (which connections it polls) is exercised end to end by ParkedConnectionsTest.
 */
class ParkingTest {

    private static final ProtocolOptions SMALL = new ProtocolOptions(4, 8192, 1 << 20, Duration.ofSeconds(1),
        Duration.ofSeconds(5));
    /** Doorbell numbers in different words of their pages. */
    private static final int SERVER_DOORBELL = 5;
    private static final int CLIENT_DOORBELL = 70;

    @Test
    void aParkedConnectionIsWokenByItsPeersFrameAndByItsOwnProducerAndMissesNothing() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL);
             Doorbells serverBells = new Doorbells(pair.serverDevice, true);
             Doorbells clientBells = new Doorbells(pair.clientDevice, true)) {
            assertThat(pair.client.mayUseDoorbell()).as("direct peer access on shm").isTrue();
            assertThat(pair.server.park()).as("no doorbell yet: never parked").isFalse();
            pair.server.doorbell(serverBells, SERVER_DOORBELL);
            pair.client.doorbell(clientBells, CLIENT_DOORBELL);
            pair.pump(); // each side maps the other's page and acknowledges

            for (int round = 0; round < 3; round++) {
                assertThat(pair.server.park()).as("round %d: the idle server parks", round).isTrue();
                assertThat(pair.client.park()).as("round %d: the idle client parks", round).isTrue();
                takeAll(serverBells);
                takeAll(clientBells);

                // the client's producer commits on the parked pair
                final ProtocolStream out = pair.client.stream(1);
                final int index = out.claim(8);
                out.buffer().putLong(index, 0xC0FFEEL + round);
                out.commit(ProtocolStream.WHOLE);

                assertThat(takeAll(serverBells)).as("round %d: the server's doorbell rang", round)
                    .containsExactly(SERVER_DOORBELL);
                assertThat(takeAll(clientBells)).as("round %d: the client's own doorbell rang", round)
                    .containsExactly(CLIENT_DOORBELL);

                final long now = System.nanoTime();
                pair.server.unpark(now);
                pair.client.unpark(now);
                pair.pump();
                final List<Long> received = new ArrayList<>();
                pair.server.stream(1).poll((buffer, at, length, type, flags) -> received.add(buffer.getLong(at)));
                assertThat(received).as("round %d: the frame arrived once, whole", round).containsExactly(0xC0FFEEL + round);
                pair.pump(); // the credit goes back
                assertThat(pair.server.error()).isNull();
                assertThat(pair.client.error()).isNull();
            }
        }
    }

    @Test
    void aConnectionDoesNotParkWhileAMarkOrThePeersWriteWaitsToBeSeen() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL);
             Doorbells serverBells = new Doorbells(pair.serverDevice, true);
             Doorbells clientBells = new Doorbells(pair.clientDevice, true)) {
            pair.server.doorbell(serverBells, SERVER_DOORBELL);
            pair.client.doorbell(clientBells, CLIENT_DOORBELL);
            pair.pump();

            // the client publishes while the server is polled: the server's look-flag is set, so it looks first
            final ProtocolStream out = pair.client.stream(1);
            out.claim(8);
            out.commit(ProtocolStream.WHOLE);
            assertThat(pair.server.park()).as("the server with a frame it has not looked at").isFalse();
            assertThat(pair.client.park()).as("the client with a commit it has not posted").isFalse();

            pair.pump();
            // the server's consumer asks for more: a mark the loop has not taken
            pair.server.stream(1).request(4);
            assertThat(pair.server.park()).as("the server with a request not yet sent").isFalse();
            pair.pump();
            pair.server.stream(1).poll((buffer, at, length, type, flags) -> { });
            pair.pump();
            assertThat(pair.server.park()).as("the server once everything was seen").isTrue();
            assertThat(pair.client.park()).as("the client once everything was seen").isTrue();
        }
    }

    @Test
    void aDoorbellThePeerCannotMapIsNeverAcknowledgedAndTheConnectionStaysPolled() {
        try (ConnectionPair pair = ConnectionPair.open(SMALL);
             Doorbells serverBells = new Doorbells(pair.serverDevice, true)) {
            pair.server.doorbell(serverBells, SERVER_DOORBELL);
            // play a broken (or hostile) server: its description names a key the client cannot map
            pair.server.peerWrittenLines().putInt(ConnectionLayout.DOORBELL_KEY_OFFSET, 0x7eadbeef);
            pair.pump();
            for (int i = 0; i < 10; i++) {
                pair.pump();
                assertThat(pair.server.park()).as("never acknowledged: never parked").isFalse();
            }
            // and the connection still carries frames
            final ProtocolStream out = pair.client.stream(1);
            final int index = out.claim(8);
            out.buffer().putLong(index, 42);
            out.commit(ProtocolStream.WHOLE);
            pair.pump();
            final List<Long> received = new ArrayList<>();
            pair.server.stream(1).poll((buffer, at, length, type, flags) -> received.add(buffer.getLong(at)));
            assertThat(received).containsExactly(42L);
            assertThat(pair.client.error()).isNull();
        }
    }

    private static List<Integer> takeAll(final Doorbells doorbells) {
        final List<Integer> rang = new ArrayList<>();
        for (int w = 0; w < doorbells.wordsInUse() || w < 2; w++) {
            long bits = doorbells.take(w);
            while (bits != 0) {
                rang.add((w << 6) + Long.numberOfTrailingZeros(bits));
                bits &= bits - 1;
            }
        }
        return rang;
    }
}
