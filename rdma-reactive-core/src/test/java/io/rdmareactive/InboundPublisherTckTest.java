package io.rdmareactive;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectories;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;
import org.reactivestreams.tck.TestEnvironment;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeClass;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The Reactive Streams TCK against the inbound publisher, {@code connection.inbound().receive(codec)}: a client
 * connection's Flux of what a server sends. One server serves the whole class; for each publisher the TCK asks for,
 * a new client connects and tells the server (in its first message) how many messages to send before completing,
 * or to fail at once. TestNG runs this class, through the TestNG engine on the JUnit platform.
 *
 * <p>The timeouts bound waits for signals that must come (generous, as the machine is shared); the "no signals"
 * wait only makes a check for unwanted signals less thorough if it is short, never fail.
 */
public class InboundPublisherTckTest extends PublisherVerification<String> {

    private static final String FAIL = "fail";
    private static final String FAILURE_MESSAGE = "the failed publisher the TCK asked for";

    private final List<Connection> connections = new ArrayList<>();
    private Path directory;
    private String address;
    private DisposableServer server;

    public InboundPublisherTckTest() {
        super(new TestEnvironment(10_000, 250, 20), 1_000);
    }

    @BeforeClass
    public void startServer() {
        directory = ShmTestDirectories.create();
        address = ShmTestSupport.uniqueAddress("tck");
        server = ShmTestSupport.server(directory, address)
            .handle((in, out) -> in.receive(Codecs.UTF8_STRING).next().flatMap(command -> FAIL.equals(command)
                ? out.send(Flux.<String>error(new IllegalStateException(FAILURE_MESSAGE)), Codecs.UTF8_STRING)
                : out.send(messages(Long.parseLong(command)), Codecs.UTF8_STRING)))
            .bind().block(ShmTestSupport.BOUND);
    }

    /**
     * Disposes the connections of the test that ran, and waits until they are closed: a subscriber that had not
     * finished gets its {@link RdmaConnectionException} now, before the next test starts, not during it (where the
     * shared test environment would count it against that test).
     */
    @AfterMethod
    public void disposeConnections() {
        for (final Connection connection : connections) {
            connection.dispose();
            connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
        }
        connections.clear();
    }

    @AfterClass(alwaysRun = true)
    public void stopServer() {
        disposeConnections();
        if (server != null) {
            server.dispose();
        }
        ShmTestDirectories.delete(directory);
    }

    /** Exactly {@code count} messages, "0", "1", ..., made only as they are requested. */
    private static Flux<String> messages(final long count) {
        return Flux.generate(() -> 0L, (next, sink) -> {
            if (next < count) {
                sink.next(Long.toString(next));
            } else {
                sink.complete();
            }
            return next + 1;
        });
    }

    private Publisher<String> connectAndAsk(final String command) {
        // a test asks for one publisher at a time (the stochastic one, 100 in turn): free the previous ones first
        disposeConnections();
        final Connection connection = ShmTestSupport.client(directory, address).connect().block(ShmTestSupport.BOUND);
        connections.add(connection);
        connection.outbound().send(Mono.just(command), Codecs.UTF8_STRING).subscribe(null, error -> { });
        return connection.inbound().receive(Codecs.UTF8_STRING);
    }

    @Override
    public Publisher<String> createPublisher(final long elements) {
        return connectAndAsk(Long.toString(elements));
    }

    @Override
    public Publisher<String> createFailedPublisher() {
        return connectAndAsk(FAIL);
    }

    @Override
    public long maxElementsFromPublisher() {
        return Long.MAX_VALUE - 1; // as many as asked for, and a completion after them
    }
}
