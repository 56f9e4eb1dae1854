package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;

/**
 * A producer that sends as fast as it can meets a subscriber that takes one message at a time, slowly: the
 * subscriber's demand, carried to the sender as credit, must hold the producer back. Nothing is dropped, the
 * producer's upstream is never asked far ahead of what the subscriber has taken, the heap does not grow with the
 * backlog, and the registered memory (the files of the shared-memory provider) stays exactly as it was set up. A sender
 * asks its publisher for large elements a few at a time.
 *
 * <p>Nothing here depends on timing: the subscriber is slow by design, and every figure asserted is a count or a
 * size. The measured figures are printed for the record.
 */
@ExtendWith(TestTransportResolver.class)
class SlowConsumerTest {

    /** The transport this class runs on: shared memory, or verbs in a subclass that is {@link OnVerbs}. */
    private final TestTransport transport;

    SlowConsumerTest(final TestTransport transport) {
        this.transport = transport;
    }

    /** The first messages are taken one request(1) at a time, a few hundred microseconds apart; the rest at once. */
    private static final int SLOW_MESSAGES = 10_000;
    private static final int CHECKPOINT_EVERY = 2_500;
    private static final int PREFETCH = 256;
    private static final int RING_CAPACITY = 64 * 1024;
    /** The smallest frame a message can take in a ring: an 8-byte header and at least one byte, 8-aligned. */
    private static final int SMALLEST_FRAME = 16;
    private static final long HEAP_GROWTH_BOUND = 64L << 20;

    @ShmTestDirectory
    private Path directory;

    @Test
    void aSlowSubscriberHoldsTheRemoteProducerBackWithNothingDroppedAndMemoryBounded() throws Exception {
        final int messages = (int) transport.scaled(200_000, 20_000);
        final String address = transport.uniqueAddress("slow");
        final AtomicLong requestedFromProducer = new AtomicLong();
        final AtomicLong producedByProducer = new AtomicLong();
        final AtomicLong delivered = new AtomicLong();
        final AtomicLong maxRequestedAhead = new AtomicLong();
        final AtomicLong maxProducedAhead = new AtomicLong();
        final DisposableServer server = transport.server(directory, address)
            .handle((in, out) -> out.send(Flux.range(0, messages)
                .doOnRequest(n -> {
                    final long requested = requestedFromProducer.accumulateAndGet(n, SlowConsumerTest::addCapped);
                    maxRequestedAhead.accumulateAndGet(requested - delivered.get(), Math::max);
                })
                .doOnNext(i -> {
                    final long produced = producedByProducer.incrementAndGet();
                    maxProducedAhead.accumulateAndGet(produced - delivered.get(), Math::max);
                })
                .map(String::valueOf), Codecs.UTF8_STRING))
            .bind().block(ShmTestSupport.BOUND);
        try {
            final Connection connection = transport.client(directory, address).rings(4, RING_CAPACITY)
                .prefetch(PREFETCH).connect().block(ShmTestSupport.BOUND);
            final Map<String, Long> filesAtStart = ShmTestSupport.fileSizes(directory);
            final long heapAtStart = ShmTestSupport.usedHeapAfterGc();
            final SlowSubscriber subscriber = new SlowSubscriber(delivered, directory);
            connection.inbound().receive(Codecs.UTF8_STRING).subscribe(subscriber);

            subscriber.done.get(3, TimeUnit.MINUTES);

            assertThat(subscriber.error).as("the subscriber's error").isNull();
            assertThat(subscriber.firstOutOfOrder).as("the first message out of order or wrong").isNull();
            assertThat(subscriber.received).as("messages received, each once and in order").isEqualTo(messages);
            assertThat(producedByProducer.get()).as("messages the producer made").isEqualTo(messages);

            final long inFlightBound = PREFETCH + RING_CAPACITY / SMALLEST_FRAME;
            assertThat(maxRequestedAhead.get())
                .as("most the producer's upstream was asked for beyond what the subscriber had taken")
                .isLessThanOrEqualTo(inFlightBound);
            assertThat(maxProducedAhead.get())
                .as("most the producer made beyond what the subscriber had taken")
                .isLessThanOrEqualTo(inFlightBound);

            assertThat(subscriber.filesAtCheckpoints).as("the shm files and their sizes at each checkpoint")
                .hasSize(SLOW_MESSAGES / CHECKPOINT_EVERY)
                .allSatisfy(files -> assertThat(files).isEqualTo(filesAtStart));
            final long maxHeapGrowth = subscriber.heapAtCheckpoints.stream().mapToLong(used -> used - heapAtStart)
                .max().orElseThrow();
            assertThat(maxHeapGrowth).as("used heap growth after GC during the slow phase")
                .isLessThan(HEAP_GROWTH_BOUND);

            System.out.printf("slow consumer: %d messages; most requested ahead of delivery %d, most produced ahead "
                    + "%d (bound %d); heap at start %.1f MiB, growth at checkpoints %s KiB; %d files, %d bytes%n",
                messages, maxRequestedAhead.get(), maxProducedAhead.get(), inFlightBound, heapAtStart / 1048576.0,
                subscriber.heapAtCheckpoints.stream().map(used -> (used - heapAtStart) / 1024).toList(),
                filesAtStart.size(), filesAtStart.values().stream().mapToLong(Long::longValue).sum());
            connection.dispose();
        } finally {
            server.dispose();
        }
    }

    /**
     * A sender asks its publisher for elements by their size: a publisher that makes 1 MiB elements on request is
     * asked for two at a time, so it never holds more than a few MiB of them (64 at a time would be 64 MiB); one of
     * 100-byte elements is asked for more. Every message arrives once, in order, with its bytes.
     */
    @Test
    void aSenderAsksItsPublisherForFewLargeElementsAtATimeAndManySmallOnes() {
        assertThat(largestRequest(1 << 20, 24)).as("the largest request(n) for 1 MiB elements").isEqualTo(2);
        assertThat(largestRequest(100, 2_000)).as("the largest request(n) for 100-byte elements").isGreaterThan(2);
    }

    /** @return the largest request(n) the publisher got while the server sent {@code count} messages of {@code size} */
    private long largestRequest(final int size, final int count) {
        final String address = transport.uniqueAddress("ahead");
        final AtomicLong largest = new AtomicLong();
        final int maxLength = Math.max(size, 1 << 10); // the least a connection allows
        final DisposableServer server = transport.server(directory, address).maxMessageLength(maxLength)
            .handle((in, out) -> out.send(Flux.range(0, count)
                .doOnRequest(n -> largest.accumulateAndGet(n, Math::max))
                .map(i -> {
                    final UnsafeBuffer message = new UnsafeBuffer(new byte[size]);
                    message.putInt(0, i);
                    message.putInt(size - 4, ~i);
                    return (DirectBuffer) message;
                }), Codecs.DIRECT_BUFFER))
            .bind().block(ShmTestSupport.BOUND);
        try {
            final Connection connection = transport.client(directory, address).maxMessageLength(maxLength)
                .connect().block(ShmTestSupport.BOUND);
            final List<String> wrong = new ArrayList<>();
            final AtomicLong next = new AtomicLong();
            connection.inbound().receiveViews().take(count).doOnNext(view -> {
                final long index = next.getAndIncrement();
                if (view.capacity() != size || view.getInt(0) != index || view.getInt(size - 4) != ~index) {
                    wrong.add("message " + index + ": " + view.capacity() + " bytes, first int " + view.getInt(0));
                }
            }).blockLast(ShmTestSupport.BOUND.multipliedBy(2));
            assertThat(wrong).as("messages that arrived wrong").isEmpty();
            assertThat(next.get()).as("messages received").isEqualTo(count);
            connection.dispose();
            return largest.get();
        } finally {
            server.dispose();
        }
    }

    private static long addCapped(final long a, final long b) {
        final long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /**
     * Takes the first {@link #SLOW_MESSAGES} one at a time with a pause before each request, sampling the heap and
     * the directory every {@link #CHECKPOINT_EVERY}; then asks for the rest at once. Checks every message in place.
     */
    private static final class SlowSubscriber extends BaseSubscriber<String> {

        final CompletableFuture<Void> done = new CompletableFuture<>();
        final List<Long> heapAtCheckpoints = new ArrayList<>();
        final List<Map<String, Long>> filesAtCheckpoints = new ArrayList<>();
        private final AtomicLong delivered;
        private final Path directory;
        volatile long received;
        volatile String firstOutOfOrder;
        volatile Throwable error;

        SlowSubscriber(final AtomicLong delivered, final Path directory) {
            this.delivered = delivered;
            this.directory = directory;
        }

        @Override
        protected void hookOnSubscribe(final Subscription subscription) {
            request(1);
        }

        @Override
        protected void hookOnNext(final String value) {
            final long index = received;
            delivered.incrementAndGet();
            if (firstOutOfOrder == null && !value.equals(Long.toString(index))) {
                firstOutOfOrder = "message " + index + " was '" + value + "'";
            }
            received = index + 1;
            if (received < SLOW_MESSAGES) {
                LockSupport.parkNanos(200_000);
                request(1);
            } else if (received == SLOW_MESSAGES) {
                checkpoint();
                requestUnbounded();
            }
            if (received % CHECKPOINT_EVERY == 0 && received < SLOW_MESSAGES) {
                checkpoint();
            }
        }

        private void checkpoint() {
            heapAtCheckpoints.add(ShmTestSupport.usedHeapAfterGc());
            filesAtCheckpoints.add(ShmTestSupport.fileSizes(directory));
        }

        @Override
        protected void hookOnComplete() {
            done.complete(null);
        }

        @Override
        protected void hookOnError(final Throwable throwable) {
            error = throwable;
            done.complete(null);
        }
    }
}
