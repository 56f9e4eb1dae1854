package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.rdmareactive.codec.Codecs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Idle connections are parked by their loop (it stops polling them) and woken by whatever gives them work: many
 * connections of one runtime, idle long enough to park, stay alive through several liveness timeouts (a parked
 * connection still sends its keepalives and hears its peer's), each answers its next request, and each ends when the
 * server goes away. Waits are bounded; nothing asserts how long anything took.
 */
@ExtendWith(TestTransportResolver.class)
class ParkedConnectionsTest extends RuntimeTestFixture {

    /** The transport this class runs on: shared memory, or verbs in a subclass that is {@link OnVerbs}. */
    private final TestTransport transport;

    ParkedConnectionsTest(final TestTransport transport) {
        this.transport = transport;
    }

    /** Connections, keepalive interval and liveness timeout: a subclass that runs where things are slower sets more. */
    protected int connectionCount() {
        return 40;
    }

    protected Duration keepalive() {
        return Duration.ofMillis(100);
    }

    protected Duration livenessTimeout() {
        return Duration.ofMillis(500);
    }

    @Test
    void idleConnectionsParkStayAliveThroughKeepalivesAnswerTheirNextRequestAndEndWithTheirServer() {
        final int count = connectionCount();
        final Duration interval = keepalive();
        final Duration timeout = livenessTimeout();
        final RdmaRuntime runtime = track(RdmaRuntime.builder().provider(transport.provider())
            .directory(directory).idleStrategy("backoff").loops(1).build());
        final String address = transport.uniqueAddress("parked");
        final DisposableServer server = track(RdmaServer.create().runOn(runtime).address(address)
            .liveness(interval, timeout)
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).next()
                .map(String::toUpperCase), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND));
        final RdmaClient client = RdmaClient.create().runOn(runtime).address(address)
            .liveness(interval, timeout);
        final List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            connections.add(track(client.connect().block(ShmTestSupport.BOUND)));
        }

        for (int round = 0; round < 3; round++) {
            final int r = round;
            // both sides of every connection park once idle (a few duty cycles)
            await("round " + round + ": every connection parked").atMost(ShmTestSupport.BOUND)
                .untilAsserted(() -> assertThat(runtime.loops.parkedConnections())
                    .as(() -> "parked connections; the clients: " + connections.stream()
                        .map(c -> ((DefaultConnection) c).describeStreams()).toList())
                    .isEqualTo(2 * count));
            // idle for more than twice the liveness timeout: keepalives wake them, nothing ends
            final long idleUntil = System.nanoTime() + 2 * timeout.toNanos() + interval.toNanos();
            await("round " + round + ": idle past the liveness timeout").atMost(ShmTestSupport.BOUND)
                .pollInterval(Duration.ofMillis(50)).until(() -> System.nanoTime() > idleUntil);
            for (int i = 0; i < count; i++) {
                assertThat(connections.get(i).isDisposed()).as("round %d: connection %d still up", r, i).isFalse();
            }
            // every connection answers its next request, the right answer for each
            final List<String> answers = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                answers.add(connections.get(i).requestResponse("r" + round + "c" + i, Codecs.UTF8_STRING,
                    Codecs.UTF8_STRING).block(ShmTestSupport.BOUND));
            }
            for (int i = 0; i < count; i++) {
                assertThat(answers.get(i)).as("round %d: connection %d's answer", r, i)
                    .isEqualTo(("r" + round + "c" + i).toUpperCase());
            }
        }

        await("parked again").atMost(ShmTestSupport.BOUND)
            .until(() -> runtime.loops.parkedConnections() == 2 * count);
        server.dispose();
        Mono.when(connections.stream().map(c -> c.onDispose().onErrorComplete()).toList())
            .block(ShmTestSupport.BOUND);
        assertThat(connections).as("every parked client connection ended with its server")
            .allMatch(Connection::isDisposed);
    }

    /**
     * The loop waits longer before it parks a connection with a stream in use (a send running, a subscriber reading,
     * a request's stream open) than one with none, so that a stream's short pauses do not park it; what it counts as in
     * use ends with the use: after a subscriber leaves and after calls and a cancelled request stream, both sides
     * count nothing in use. A connection whose own stream is read still parks once it stays idle.
     */
    @Test
    void streamsInUseAreCountedUntilTheirUseEndsAndAConnectionBeingReadStillParks() {
        final RdmaRuntime runtime = track(RdmaRuntime.builder().provider(transport.provider())
            .directory(directory).idleStrategy("backoff").loops(1).build());
        final String address = transport.uniqueAddress("in-use");
        final DefaultServer bound = (DefaultServer) track(RdmaServer.create().runOn(runtime).address(address)
            .handleStreams((kind, in, out) -> kind == StreamKind.REQUEST_STREAM
                ? out.send(Flux.interval(Duration.ofMillis(5)).map(String::valueOf),
                    Codecs.UTF8_STRING)
                : out.send(in.receive(Codecs.UTF8_STRING).next().map(String::toUpperCase), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND));
        final DefaultConnection client = (DefaultConnection) track(RdmaClient.create().runOn(runtime)
            .address(address).connect().block(ShmTestSupport.BOUND));
        await("the server's side").atMost(ShmTestSupport.BOUND).until(() -> bound.connections().size() == 1);
        final DefaultConnection server = bound.connections().iterator().next();
        await("nothing in use at first").atMost(ShmTestSupport.BOUND)
            .until(() -> !client.hasStreamsInUse() && !server.hasStreamsInUse());

        // a subscriber on the connection's own stream: in use, and parked all the same once idle
        final Disposable reading = client.inbound().receive(Codecs.UTF8_STRING).subscribe();
        await("a subscriber is a use").atMost(ShmTestSupport.BOUND).until(client::hasStreamsInUse);
        await("parked while read").atMost(ShmTestSupport.BOUND)
            .untilAsserted(() -> assertThat(runtime.loops.parkedConnections()).as(client::describeStreams)
                .isEqualTo(2));
        reading.dispose();
        await("the subscriber left").atMost(ShmTestSupport.BOUND).until(() -> !client.hasStreamsInUse());

        // an endless request stream is a use on both sides until it is cancelled and its stream ends
        final List<String> ticks = new CopyOnWriteArrayList<>();
        final Disposable streaming = client.requestStream("ticks", Codecs.UTF8_STRING,
            Codecs.UTF8_STRING).subscribe(ticks::add);
        await("ticks arrive").atMost(ShmTestSupport.BOUND).until(() -> ticks.size() >= 3);
        assertThat(client.hasStreamsInUse()).as("the client's request stream").isTrue();
        assertThat(server.hasStreamsInUse()).as("the server's answering stream").isTrue();
        streaming.dispose();
        for (int i = 0; i < 20; i++) {
            assertThat(client.requestResponse("call " + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(ShmTestSupport.BOUND)).isEqualTo("CALL " + i);
        }
        await("every use ended on both sides").atMost(ShmTestSupport.BOUND)
            .untilAsserted(() -> assertThat(List.of(client.hasStreamsInUse(), server.hasStreamsInUse()))
                .as(() -> client.describeStreams() + "\n" + server.describeStreams()).containsExactly(false, false));
        await("both sides parked again").atMost(ShmTestSupport.BOUND)
            .until(() -> runtime.loops.parkedConnections() == 2);
    }

    /**
     * A parked connection is brought back by the work that reaches it alone, not by its next keepalive: with a
     * keepalive a minute apart, longer than a call may take here, a call on a connection parked on both sides is
     * answered, three times over. On shared memory the client's commit rings the server's doorbell; on verbs the
     * request's arrival is a completion on the server's armed queue, which rings it.
     */
    @Test
    void aParkedConnectionIsWokenByARequestNotByItsNextKeepalive() {
        final RdmaRuntime runtime = track(RdmaRuntime.builder().provider(transport.provider())
            .directory(directory).idleStrategy("backoff").loops(1).build());
        final String address = transport.uniqueAddress("woken");
        final Duration minute = Duration.ofMinutes(1);
        track(RdmaServer.create().runOn(runtime).address(address).liveness(minute, minute.multipliedBy(3))
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).next()
                .map(String::toUpperCase), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND));
        final Connection connection = track(RdmaClient.create().runOn(runtime).address(address)
            .liveness(minute, minute.multipliedBy(3)).connect().block(ShmTestSupport.BOUND));
        for (int i = 0; i < 3; i++) {
            final int call = i;
            await("call " + i + ": both sides parked").atMost(ShmTestSupport.BOUND)
                .untilAsserted(() -> assertThat(runtime.loops.parkedConnections()).as(() -> "parked; "
                    + ((DefaultConnection) connection).describeStreams()).isEqualTo(2));
            assertThat(connection.requestResponse("call " + call, Codecs.UTF8_STRING, Codecs.UTF8_STRING)
                .block(Duration.ofSeconds(20))).isEqualTo("CALL " + call);
        }
    }
}
