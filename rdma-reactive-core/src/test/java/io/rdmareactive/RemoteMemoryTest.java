package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.Codecs;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One-sided operations through the API: a server registers a region on its side of a connection and sends its
 * descriptor in a message; the client reads, writes and runs atomics on it, every byte and value checked; whatever
 * the descriptor rules out is refused before anything is posted and the connection carries on; a region the peer
 * closed is refused by its provider with a typed error; the connection's end fails what was in flight.
 */
@ExtendWith(TestTransportResolver.class)
class RemoteMemoryTest {

    /** The transport this class runs on: shared memory, or verbs in a subclass that is {@link OnVerbs}. */
    private final TestTransport transport;

    private static final int REGION = 64 * 1024;

    @ShmTestDirectory
    private Path directory;
    private final List<reactor.core.Disposable> opened = new ArrayList<>();
    RemoteMemoryTest(final TestTransport transport) {
        this.transport = transport;
    }

    /** The server's side of the one connection (the handler saw it). */
    private final AtomicReference<Connection> serverSide = new AtomicReference<>();
    /** The region the server registered for the client, once asked. */
    private final AtomicReference<LocalRegion> served = new AtomicReference<>();
    private Connection client;

    @BeforeEach
    void start() {
        address = transport.uniqueAddress("remote-memory");
        final DisposableServer server = transport.server(directory, address).handleStreams((kind, in, out) ->
            out.send(in.receive(Codecs.UTF8_STRING).next().map(rights -> {
                final Connection connection = in.connection();
                serverSide.set(connection);
                final LocalRegion region = connection.registerRegion(REGION, parse(rights));
                for (int i = 0; i < REGION; i += 8) {
                    region.buffer().putLong(i, i * 31L);
                }
                served.set(region);
                return region.descriptor();
            }), RegionDescriptor.CODEC)).bind().block(ShmTestSupport.BOUND);
        opened.add(server);
        client = transport.client(directory, address).connect().block(ShmTestSupport.BOUND);
        opened.add(client);
    }

    @AfterEach
    void stop() {
        for (final reactor.core.Disposable disposable : opened) {
            disposable.dispose();
            if (disposable instanceof Connection connection) {
                connection.onDispose().onErrorComplete().block(ShmTestSupport.BOUND);
            }
        }
    }

    private static RegionAccess[] parse(final String rights) {
        return rights.isEmpty() ? new RegionAccess[0] : java.util.Arrays.stream(rights.split(","))
            .map(RegionAccess::valueOf).toArray(RegionAccess[]::new);
    }

    /** @return the server's region, with {@code rights}, as the client reaches it */
    private RemoteRegion remote(final String rights) {
        final RegionDescriptor descriptor = client.requestResponse(rights, Codecs.UTF8_STRING, RegionDescriptor.CODEC)
            .block(ShmTestSupport.BOUND);
        return client.remoteRegion(descriptor);
    }

    private LocalRegion local(final int length) {
        final LocalRegion region = client.registerRegion(length);
        opened.add(region::close);
        return region;
    }

    @Test
    void readsAndWritesMoveEveryByteBothWays() {
        final RemoteRegion remote = remote("REMOTE_READ,REMOTE_WRITE");
        final LocalRegion local = local(REGION);
        remote.read(0, local, 0, REGION).block(ShmTestSupport.BOUND);
        for (int i = 0; i < REGION; i += 8) {
            assertThat(local.buffer().getLong(i)).as("word at %d", i).isEqualTo(i * 31L);
        }
        final SplittableRandom random = new SplittableRandom(15);
        for (int round = 0; round < 200; round++) {
            final int length = 1 + random.nextInt(4096);
            final int offset = random.nextInt(REGION - length + 1);
            final int source = random.nextInt(REGION - length + 1);
            final byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            local.buffer().putBytes(source, bytes);
            remote.write(offset, local, source, length).block(ShmTestSupport.BOUND);
            final byte[] seen = new byte[length];
            served.get().buffer().getBytes(offset, seen);
            assertThat(seen).as("round %d: %d bytes at %d", round, length, offset).isEqualTo(bytes);
        }
    }

    @Test
    void atomicsReturnTheWordBeforeAndChangeItOnce() {
        final RemoteRegion remote = remote("REMOTE_ATOMIC");
        assertThat(remote.fetchAndAdd(64, 5).block(ShmTestSupport.BOUND)).isEqualTo(64 * 31L);
        assertThat(remote.fetchAndAdd(64, -2).block(ShmTestSupport.BOUND)).isEqualTo(64 * 31L + 5);
        assertThat(remote.compareAndSwap(64, 1, 99).block(ShmTestSupport.BOUND)).as("no swap").isEqualTo(64 * 31L + 3);
        assertThat(remote.compareAndSwap(64, 64 * 31L + 3, 99).block(ShmTestSupport.BOUND)).isEqualTo(64 * 31L + 3);
        assertThat(served.get().buffer().getLong(64)).isEqualTo(99);
    }

    @Test
    void manyOperationsKeepOrderAndNeverExceedTheBound() {
        final RemoteRegion remote = remote("REMOTE_ATOMIC,REMOTE_READ");
        final int count = (int) transport.scaled(20_000, 500);
        final AtomicLong requested = new AtomicLong();
        final AtomicLong emitted = new AtomicLong();
        final AtomicLong mostOutstanding = new AtomicLong();
        final Flux<RemoteOperation> operations = Flux.range(0, count)
            .doOnRequest(n -> requested.addAndGet(n))
            .map(i -> RemoteOperation.fetchAndAdd(8, 1))
            .doOnNext(op -> mostOutstanding.accumulateAndGet(emitted.incrementAndGet() - completed.get(), Math::max));
        final List<Long> results = remote.execute(operations).doOnNext(v -> completed.incrementAndGet())
            .collectList().block(ShmTestSupport.BOUND.multipliedBy(4));
        assertThat(results).hasSize(count);
        for (int i = 0; i < count; i++) {
            assertThat(results.get(i)).as("result %d", i).isEqualTo(8 * 31L + i);
        }
        assertThat(served.get().buffer().getLong(8)).isEqualTo(8 * 31L + count);
        assertThat(mostOutstanding.get()).as("operations taken and not completed at once")
            .isLessThanOrEqualTo(client.maxOneSidedInFlight());
    }

    private final AtomicLong completed = new AtomicLong();

    /**
     * An operation subscribed on the event loop does not overtake operations other threads handed over before it:
     * while a completion signal holds the loop, this thread subscribes 100 fetch-and-adds (they wait as the loop's
     * tasks); the signal then subscribes one more, which must run after all of them.
     */
    @Test
    void anOperationSubscribedOnTheLoopRunsAfterTheOnesHandedOverBeforeIt() throws InterruptedException {
        final RemoteRegion remote = remote("REMOTE_ATOMIC");
        final java.util.concurrent.CountDownLatch onLoop = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch handedOver = new java.util.concurrent.CountDownLatch(1);
        final AtomicLong last = new AtomicLong(-1);
        final java.util.concurrent.CountDownLatch lastDone = new java.util.concurrent.CountDownLatch(1);
        remote.fetchAndAdd(16, 1).subscribe(first -> {
            onLoop.countDown();
            try {
                assertThat(handedOver.await(ShmTestSupport.BOUND.toMillis(),
                    java.util.concurrent.TimeUnit.MILLISECONDS)).isTrue();
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            remote.fetchAndAdd(16, 1).subscribe(value -> {
                last.set(value);
                lastDone.countDown();
            });
        });
        assertThat(onLoop.await(ShmTestSupport.BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)).isTrue();
        final List<Long> before = java.util.Collections.synchronizedList(new ArrayList<>());
        final java.util.concurrent.CountDownLatch beforeDone = new java.util.concurrent.CountDownLatch(100);
        for (int i = 0; i < 100; i++) {
            remote.fetchAndAdd(16, 1).subscribe(value -> {
                before.add(value);
                beforeDone.countDown();
            });
        }
        handedOver.countDown();
        await(beforeDone);
        await(lastDone);
        final long start = 16 * 31L;
        assertThat(before).as("the operations handed over first ran first").hasSize(100)
            .allSatisfy(value -> assertThat(value).isBetween(start + 1, start + 100));
        assertThat(last.get()).as("the one subscribed on the loop afterwards ran last").isEqualTo(start + 101);
    }

    @Test
    void whatTheDescriptorRulesOutIsRefusedAndTheConnectionCarriesOn() {
        final RemoteRegion readOnly = remote("REMOTE_READ");
        final LocalRegion local = local(4096);
        assertRefused(readOnly.write(0, local, 0, 8), RdmaRemoteAccessException.Reason.NOT_PERMITTED, "REMOTE_WRITE");
        assertRefused(readOnly.fetchAndAdd(0, 1), RdmaRemoteAccessException.Reason.NOT_PERMITTED, "REMOTE_ATOMIC");
        assertRefused(readOnly.read(REGION - 4, local, 0, 8), RdmaRemoteAccessException.Reason.OUT_OF_BOUNDS,
            "outside the peer's region");
        assertRefused(readOnly.read(-1, local, 0, 8), RdmaRemoteAccessException.Reason.OUT_OF_BOUNDS, "outside");
        assertRefused(readOnly.read(0, local, 0, 0), RdmaRemoteAccessException.Reason.OUT_OF_BOUNDS, "positive");
        final RemoteRegion atomic = remote("REMOTE_ATOMIC");
        assertRefused(atomic.compareAndSwap(4, 0, 1), RdmaRemoteAccessException.Reason.MISALIGNED, "8-byte aligned");
        assertThatThrownBy(() -> readOnly.read(0, local, 4090, 8).block(ShmTestSupport.BOUND))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside the local region");
        final LocalRegion closed = local(4096);
        closed.close();
        assertThatThrownBy(() -> readOnly.read(0, closed, 0, 8).block(ShmTestSupport.BOUND))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        // a descriptor from another connection: its key names nothing here
        final Connection other = transport.client(directory, address).connect().block(ShmTestSupport.BOUND);
        opened.add(other);
        final RegionDescriptor descriptor = readOnly.descriptor();
        assertThatThrownBy(() -> other.remoteRegion(descriptor)).isInstanceOf(RdmaRemoteAccessException.class)
            .hasMessageContaining("did not come from the peer of this connection")
            .extracting(ex -> ((RdmaRemoteAccessException) ex).reason())
            .isEqualTo(RdmaRemoteAccessException.Reason.OTHER_CONNECTION);
        // nothing was posted: the connection works as before
        readOnly.read(0, local, 0, 4096).block(ShmTestSupport.BOUND);
        assertThat(local.buffer().getLong(4088)).isEqualTo(4088 * 31L);
        assertThat(client.isDisposed()).isFalse();
    }

    private String address;

    private static void assertRefused(final Mono<?> operation, final RdmaRemoteAccessException.Reason reason,
                                      final String words) {
        assertThatThrownBy(() -> operation.block(ShmTestSupport.BOUND)).isInstanceOf(RdmaRemoteAccessException.class)
            .hasMessageContaining(words)
            .extracting(ex -> ((RdmaRemoteAccessException) ex).reason()).isEqualTo(reason);
    }

    @Test
    void aRegionThePeerClosedIsRefusedBeforePostingOnceAnnounced() throws InterruptedException {
        final RemoteRegion remote = remote("REMOTE_READ");
        final LocalRegion local = local(4096);
        remote.read(0, local, 0, 64).block(ShmTestSupport.BOUND);
        served.get().close();
        final long deadline = System.nanoTime() + ShmTestSupport.BOUND.toNanos();
        while (!remote.isClosedByPeer() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(remote.isClosedByPeer()).as("the peer announced the region closed").isTrue();
        assertRefused(remote.read(0, local, 0, 64), RdmaRemoteAccessException.Reason.REVOKED, "stale");
        // a new descriptor from the same connection for the same memory would work; the connection goes on
        assertThat(client.requestResponse("REMOTE_READ", Codecs.UTF8_STRING, RegionDescriptor.CODEC)
            .map(client::remoteRegion).flatMap(fresh -> fresh.read(8, local, 0, 8)).then(Mono.just(true))
            .block(ShmTestSupport.BOUND)).isTrue();
        assertThat(local.buffer().getLong(0)).isEqualTo(8 * 31L);
        assertThat(client.isDisposed()).isFalse();
    }

    @Test
    void aForgedDescriptorIsRefusedByThePeersProviderWithATypedErrorAndEndsTheConnection() {
        final RegionDescriptor real = remote("REMOTE_READ").descriptor();
        final RegionDescriptor forged = new RegionDescriptor(real.connection(), real.generation() + 100,
            real.address(), real.length(), real.key() ^ 0x300, real.rights());
        final LocalRegion local = local(4096);
        assertThatThrownBy(() -> client.remoteRegion(forged).read(0, local, 0, 64).block(ShmTestSupport.BOUND))
            .isInstanceOf(RdmaRemoteAccessException.class)
            .hasMessageContaining("refused")
            .extracting(ex -> ((RdmaRemoteAccessException) ex).reason())
            .isEqualTo(RdmaRemoteAccessException.Reason.REFUSED_BY_PEER);
        // a reliable connection stops at a remote access error: both ends learn it, neither crashes
        assertThatThrownBy(() -> client.onDispose().block(ShmTestSupport.BOUND))
            .isInstanceOf(RdmaConnectionException.class);
        assertThatThrownBy(() -> serverSide.get().onDispose().block(ShmTestSupport.BOUND))
            .isInstanceOf(RdmaConnectionException.class);
        // the client's own region is still its memory, and the server's too
        local.buffer().putLong(0, 7);
        assertThat(local.buffer().getLong(0)).isEqualTo(7);
        assertThat(served.get().buffer().getLong(64)).isEqualTo(64 * 31L);
    }

    @Test
    void theConnectionsEndFailsWhatWasSubmittedAndRegionsSurviveIt() {
        final RemoteRegion remote = remote("REMOTE_ATOMIC");
        final AtomicInteger failed = new AtomicInteger();
        final AtomicInteger succeeded = new AtomicInteger();
        final int count = 2_000;
        final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            remote.fetchAndAdd(0, 1).subscribe(v -> succeeded.incrementAndGet(), ex -> {
                assertThat(ex).isInstanceOf(RdmaConnectionException.class);
                failed.incrementAndGet();
                done.countDown();
            }, done::countDown);
            if (i == count / 2) {
                client.dispose();
            }
        }
        await(done);
        assertThat(succeeded.get() + failed.get()).isEqualTo(count);
        assertThat(served.get().buffer().getLong(0)).as("each success added once").isEqualTo(succeeded.get());
        assertThatThrownBy(() -> client.registerRegion(4096)).isInstanceOf(RdmaConnectionException.class);
    }

    @Test
    void oneMemoryServesTwoConnectionsEachWithItsOwnKey() {
        final RemoteRegion first = remote("REMOTE_READ");
        final Connection server = serverSide.get();
        final LocalRegion shared = server.registerRegion(served.get(), RegionAccess.REMOTE_READ);
        opened.add(shared::close);
        assertThat(shared.descriptor().key()).isNotEqualTo(served.get().descriptor().key());
        final RemoteRegion second = client.remoteRegion(shared.descriptor());
        served.get().buffer().putLong(128, 4242);
        final LocalRegion local = local(4096);
        first.read(128, local, 0, 8).block(ShmTestSupport.BOUND);
        assertThat(local.buffer().getLong(0)).isEqualTo(4242);
        second.read(128, local, 8, 8).block(ShmTestSupport.BOUND);
        assertThat(local.buffer().getLong(8)).isEqualTo(4242);
        served.get().close(); // the memory lives on under the second region
        second.read(128, local, 16, 8).block(ShmTestSupport.BOUND);
        assertThat(local.buffer().getLong(16)).isEqualTo(4242);
    }

    private static void await(final java.util.concurrent.CountDownLatch latch) {
        try {
            assertThat(latch.await(ShmTestSupport.BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS))
                .as("every operation signalled").isTrue();
        } catch (final InterruptedException ex) {
            throw new AssertionError(ex);
        }
    }
}
