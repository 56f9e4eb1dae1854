package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.internal.reactive.OutboundStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * {@link StreamChannel#send}'s {@code Mono}: each subscription starts one send of the channel's current use (an
 * {@link OutboundStream}) and completes when it ended; cancelling it cancels the send, which then ends its direction
 * with COMPLETE. One object per subscription, besides the send itself: no operator chain.
 *
 * @param <T> what the codec encodes
 */
final class ChannelSend<T> extends Mono<Void> {

    private final StreamChannel channel;
    private final Publisher<? extends T> messages;
    private final Codec<T> codec;

    ChannelSend(final StreamChannel channel, final Publisher<? extends T> messages, final Codec<T> codec) {
        this.channel = channel;
        this.messages = messages;
        this.codec = codec;
    }

    @Override
    public void subscribe(final CoreSubscriber<? super Void> actual) {
        final Sending sending = new Sending(channel, actual);
        actual.onSubscribe(sending);
        final OutboundStream<T> sender = channel.startSend(messages, codec, sending);
        if (sender == null) {
            sending.refuse(new IllegalStateException("a send is already running on this stream; send one publisher "
                + "at a time (concat them)"));
            return;
        }
        sending.sender = sender;
        if (sending.cancelled) {
            sender.cancel(); // cancelled before the sender was known: it ends at once, with COMPLETE
        }
        sender.start();
    }

    /** One subscription: the downstream's subscription, and the send's completion. */
    private static final class Sending implements Subscription, OutboundStream.Completion {
        private static final VarHandle DONE;

        static {
            try {
                DONE = MethodHandles.lookup().findVarHandle(Sending.class, "done", boolean.class);
            } catch (final ReflectiveOperationException ex) {
                throw new ExceptionInInitializerError(ex);
            }
        }

        private final StreamChannel channel;
        private final CoreSubscriber<? super Void> actual;
        volatile OutboundStream<?> sender;
        volatile boolean cancelled;
        private volatile boolean done;

        Sending(final StreamChannel channel, final CoreSubscriber<? super Void> actual) {
            this.channel = channel;
            this.actual = actual;
        }

        @Override
        public void request(final long n) {
            // a Mono<Void> delivers no element: positive demand changes nothing
            if (n <= 0) {
                final OutboundStream<?> running = sender;
                if (running != null) {
                    running.cancel();
                }
                refuse(new IllegalArgumentException("§3.9: request(n) needs n > 0, not " + n));
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
            final OutboundStream<?> running = sender;
            if (running != null) {
                running.cancel();
            }
        }

        @Override
        public void sent() {
            if (DONE.compareAndSet(this, false, true) && !cancelled) {
                actual.onComplete();
            }
            channel.outboundEnded(); // the send ended (once): the stream's outbound is done, whoever was told
        }

        @Override
        public void failed(final Throwable error) {
            if (DONE.compareAndSet(this, false, true) && !cancelled) {
                actual.onError(error);
            } else {
                Operators.onErrorDropped(error, actual.currentContext());
            }
            channel.outboundEnded();
        }

        /** The send could not start (another runs on the stream): the channel's outbound is not this one's. */
        void refuse(final Throwable error) {
            if (DONE.compareAndSet(this, false, true)) {
                actual.onError(error);
            }
        }
    }
}
