package io.rdmareactive;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectories;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.reactivestreams.tck.SubscriberBlackboxVerification;
import org.reactivestreams.tck.TestEnvironment;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeClass;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

/**
 * The Reactive Streams TCK's black-box subscriber verification against the outbound side: the subscriber that
 * {@code outbound().send(publisher, codec)} subscribes to the publisher it is given (the internal
 * {@code OutboundStream}). For each subscriber the TCK asks for, a new client connects to a server whose handler
 * reads the connection's inbound with unbounded demand (so the peer grants credit at once), and the client calls
 * {@code send} with a publisher that only records the subscriber it is given; that subscriber goes to the TCK, which
 * then plays the publisher ({@code onSubscribe}, {@code onNext}, {@code onComplete}, {@code onError}) itself.
 *
 * <p>What is verified (the {@code required_} rules): the sender signals demand through {@code request} once the
 * peer granted credit (2.1); it calls neither {@code request} nor {@code cancel} from within {@code onComplete} or
 * {@code onError} (2.3); it cancels a second subscription given to it while it holds one (2.5); it accepts
 * {@code onComplete} and {@code onError} with and without a preceding {@code request} (2.9, 2.10); and it throws
 * {@code NullPointerException} for a null subscription, element or error (2.13). The {@code untested_} rules cannot
 * be checked from outside and are reported as skipped by the TCK itself. {@link OutboundSubscriberWhiteboxTckTest}
 * runs the white-box verification, where a probe sees what the subscriber received and the remote reader's demand
 * drives the sender's requests.
 *
 * <p>TestNG runs this class, through the TestNG engine on the JUnit platform. The TCK's timeouts bound waits for
 * signals that must come ({@link ShmTestSupport#BOUND}); its "no signals" wait only makes a check for unwanted signals
 * less thorough if it is short, never fail.
 */
public class OutboundSubscriberTckTest extends SubscriberBlackboxVerification<String> {

    private final Fixture fixture = new Fixture(true);

    public OutboundSubscriberTckTest() {
        super(new TestEnvironment(ShmTestSupport.BOUND.toMillis(), 250, 20));
    }

    @BeforeClass
    public void startServer() {
        fixture.start("tck-outbound");
    }

    @AfterMethod
    public void disposeConnections() {
        fixture.disposeConnections();
    }

    @AfterClass(alwaysRun = true)
    public void stopServer() {
        fixture.stop();
    }

    @Override
    public Subscriber<String> createSubscriber() {
        return fixture.newSender().subscriber();
    }

    @Override
    public String createElement(final int element) {
        return "element " + element;
    }

    /**
     * What the outbound subscriber verifications share: one server for the class, whose handler reads each
     * connection's inbound with a {@link BaseSubscriber} that the test can drive (demand, cancel); a new client
     * connection for each subscriber, whose {@code send} subscribes the subscriber under test to a publisher that
     * records it; and the clean-up after each test and the class.
     */
    static final class Fixture {

        /** The server's reader of one connection's inbound, as the TCK's puppet drives it. */
        static final class Reader extends BaseSubscriber<String> {
            private final boolean unbounded;
            private final Runnable onEnd;

            Reader(final boolean unbounded, final Runnable onEnd) {
                this.unbounded = unbounded;
                this.onEnd = onEnd;
            }

            @Override
            protected void hookOnSubscribe(final Subscription subscription) {
                if (unbounded) {
                    subscription.request(Long.MAX_VALUE);
                } // else: no demand until the test asks (the sender must not ask its publisher for anything)
            }

            @Override
            protected void hookOnNext(final String value) {
                // read and dropped
            }

            @Override
            protected void hookFinally(final SignalType type) {
                if (type != SignalType.CANCEL) {
                    onEnd.run(); // the sender completed or failed: the handler, and with it the connection, ends
                } // a cancelled reader keeps the connection until the test disposes it
            }
        }

        /**
         * One subscriber under test: the sender {@code send} subscribed, the server's reader of what it sends, and
         * how the {@code send} Mono ended.
         */
        record Sender(Subscriber<String> subscriber, Reader reader, CompletableFuture<Throwable> sendEnded) {
        }

        private final boolean unbounded;
        private final BlockingQueue<Reader> readers = new LinkedBlockingQueue<>();
        private final List<Connection> connections = new ArrayList<>();
        private Path directory;
        private String address;
        private DisposableServer server;

        /** @param unbounded whether the server reads with unbounded demand, or only with what the test requests */
        Fixture(final boolean unbounded) {
            this.unbounded = unbounded;
        }

        void start(final String prefix) {
            directory = ShmTestDirectories.create();
            address = ShmTestSupport.uniqueAddress(prefix);
            server = ShmTestSupport.server(directory, address)
                .handle((in, out) -> Mono.<Void>create(sink -> {
                    final Reader reader = new Reader(unbounded, sink::success);
                    in.receive(Codecs.UTF8_STRING).subscribe(reader);
                    readers.add(reader);
                }))
                .bind().block(ShmTestSupport.BOUND);
        }

        /**
         * Connects a new client (one subscriber a connection: the connection's own stream carries one send), waits
         * for the server's reader of it, and calls {@code send} with a publisher that records its subscriber.
         */
        @SuppressWarnings("unchecked")
        Sender newSender() {
            final Connection connection = ShmTestSupport.client(directory, address).connect()
                .block(ShmTestSupport.BOUND);
            synchronized (connections) {
                connections.add(connection);
            }
            final Reader reader;
            try {
                reader = readers.poll(ShmTestSupport.BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
            if (reader == null) {
                throw new IllegalStateException("the server's handler did not read the new connection within "
                    + ShmTestSupport.BOUND);
            }
            final CompletableFuture<Subscriber<? super String>> captured = new CompletableFuture<>();
            final Publisher<String> recording = captured::complete;
            final CompletableFuture<Throwable> sendEnded = new CompletableFuture<>();
            connection.outbound().send(recording, Codecs.UTF8_STRING)
                .subscribe(null, sendEnded::complete, () -> sendEnded.complete(null));
            try {
                return new Sender((Subscriber<String>) captured.get(ShmTestSupport.BOUND.toMillis(),
                    TimeUnit.MILLISECONDS), reader, sendEnded);
            } catch (final Exception ex) {
                throw new IllegalStateException("send did not subscribe to its publisher", ex);
            }
        }

        /**
         * Disposes the connections of the test that ran and waits until they are closed, so that a sender still
         * running ends now, not during the next test.
         */
        void disposeConnections() {
            final List<Connection> done;
            synchronized (connections) {
                done = List.copyOf(connections);
                connections.clear();
            }
            for (final Connection connection : done) {
                connection.dispose();
                connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            }
            readers.clear();
        }

        void stop() {
            disposeConnections();
            if (server != null) {
                server.dispose();
                server.onDispose().block(ShmTestSupport.BOUND);
            }
            ShmTestDirectories.delete(directory);
        }
    }
}
