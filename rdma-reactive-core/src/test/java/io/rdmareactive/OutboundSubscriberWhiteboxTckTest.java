package io.rdmareactive;

import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.reactivestreams.tck.SubscriberWhiteboxVerification;
import org.reactivestreams.tck.TestEnvironment;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeClass;

/**
 * The Reactive Streams TCK's white-box subscriber verification against the outbound side, the subscriber that
 * {@code outbound().send(publisher, codec)} subscribes to its publisher (see {@link OutboundSubscriberTckTest}, which
 * runs the black-box verification and sets up the same way). The subscriber under test is wrapped in a probe that
 * reports every signal it received after passing it on. The TCK's puppet plays the remote subscriber, which is what
 * drives the outbound side: {@code triggerRequest(n)} is a {@code request(n)} of the server's reader of the stream,
 * which reaches the client as credit (REQUEST_N) and makes the sender ask its publisher for that many; and
 * {@code signalCancel()} cancels the server's reader, whose CANCEL frame makes the sender cancel its publisher.
 *
 * <p>What is verified beyond the black-box rules: the sender asks its publisher for exactly what the remote reader
 * requested and no more (3.8: no element beyond it is delivered); it cancels its publisher when the remote reader
 * cancels, and then still accepts elements already underway (2.8); it takes {@code onComplete} and {@code onError}
 * after demand (2.9, 2.10); plus the white-box "happy path" of demand, elements and cancel in turn.
 */
public class OutboundSubscriberWhiteboxTckTest extends SubscriberWhiteboxVerification<String> {

    private final OutboundSubscriberTckTest.Fixture fixture = new OutboundSubscriberTckTest.Fixture(false);

    public OutboundSubscriberWhiteboxTckTest() {
        super(new TestEnvironment(ShmTestSupport.BOUND.toMillis(), 250, 20));
    }

    @BeforeClass
    public void startServer() {
        fixture.start("tck-outbound-wb");
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
    public Subscriber<String> createSubscriber(final WhiteboxSubscriberProbe<String> probe) {
        final OutboundSubscriberTckTest.Fixture.Sender sender = fixture.newSender();
        return new Probed(sender, probe);
    }

    @Override
    public String createElement(final int element) {
        return "element " + element;
    }

    /**
     * Passes every signal to the sender under test, then tells the probe. A null the sender accepted (rule 2.13 says
     * it must throw) is not passed to the probe, whose own NullPointerException would hide that.
     */
    private static final class Probed implements Subscriber<String> {
        private final Subscriber<String> delegate;
        private final OutboundSubscriberTckTest.Fixture.Reader reader;
        private final WhiteboxSubscriberProbe<String> probe;

        Probed(final OutboundSubscriberTckTest.Fixture.Sender sender, final WhiteboxSubscriberProbe<String> probe) {
            this.delegate = sender.subscriber();
            this.reader = sender.reader();
            this.probe = probe;
        }

        @Override
        public void onSubscribe(final Subscription subscription) {
            delegate.onSubscribe(subscription);
            if (subscription == null) {
                return;
            }
            probe.registerOnSubscribe(new SubscriberPuppet() {
                @Override
                public void triggerRequest(final long elements) {
                    reader.request(elements); // the remote reader's demand becomes the sender's
                }

                @Override
                public void signalCancel() {
                    reader.cancel(); // the remote reader cancels: the sender cancels its publisher
                }
            });
        }

        @Override
        public void onNext(final String element) {
            delegate.onNext(element);
            if (element == null) {
                return;
            }
            probe.registerOnNext(element);
        }

        @Override
        public void onError(final Throwable error) {
            delegate.onError(error);
            if (error == null) {
                return;
            }
            probe.registerOnError(error);
        }

        @Override
        public void onComplete() {
            delegate.onComplete();
            probe.registerOnComplete();
        }

        @Override
        public String toString() {
            return "Probed(" + delegate + ")";
        }
    }
}
