package io.rdmareactive.spi.conformance;

import static io.rdmareactive.spi.CompletionStatus.LOC_ACCESS_ERR;
import static io.rdmareactive.spi.CompletionStatus.LOC_LEN_ERR;
import static io.rdmareactive.spi.CompletionStatus.LOC_PROT_ERR;
import static io.rdmareactive.spi.CompletionStatus.LOC_QP_OP_ERR;
import static io.rdmareactive.spi.CompletionStatus.REM_ACCESS_ERR;
import static io.rdmareactive.spi.CompletionStatus.REM_INV_REQ_ERR;
import static io.rdmareactive.spi.CompletionStatus.REM_OP_ERR;
import static io.rdmareactive.spi.CompletionStatus.RNR_RETRY_EXC_ERR;
import static io.rdmareactive.spi.CompletionStatus.SUCCESS;
import static io.rdmareactive.spi.CompletionStatus.WR_FLUSH_ERR;
import static io.rdmareactive.spi.WorkRequestOpcode.RDMA_READ;
import static io.rdmareactive.spi.WorkRequestOpcode.RDMA_WRITE;
import static io.rdmareactive.spi.WorkRequestOpcode.RDMA_WRITE_WITH_IMM;
import static io.rdmareactive.spi.WorkRequestOpcode.SEND;
import static io.rdmareactive.spi.WorkRequestOpcode.SEND_WITH_IMM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.ring.PageSize;
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.Availability;
import io.rdmareactive.spi.CompletionOpcode;
import io.rdmareactive.spi.CompletionStatus;
import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.ConnectionEvent;
import io.rdmareactive.spi.ConnectionRejectedException;
import io.rdmareactive.spi.DeviceCapability;
import io.rdmareactive.spi.DeviceLimits;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.PostStatus;
import io.rdmareactive.spi.ProtectionDomain;
import io.rdmareactive.spi.QueuePair;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.QueuePairState;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaException;
import io.rdmareactive.spi.RdmaProvider;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.spi.RegistrationLimitException;
import io.rdmareactive.spi.SendFlags;
import io.rdmareactive.spi.WorkRequestOpcode;
import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The provider conformance suite: what every {@link RdmaProvider} must do, written once and run against each provider
 * by a subclass that says how to open its devices and how to spell its addresses.
 *
 * <p>The behaviour asserted is that of verbs hardware (reliable connected queue pairs), because that is what the
 * protocol above the SPI is written against: bytes land where and when they should, completions carry the right
 * ids, statuses, opcodes, lengths and immediates, and come in order, errors have the statuses verbs gives them and
 * move queue pairs to the error state, which flushes everything outstanding; connections carry private data, and
 * disconnects and dead peers are reported.
 *
 * <p>Nothing here depends on timing. Providers may complete work synchronously (shared memory) or asynchronously
 * (verbs): every observation polls with a bounded wait ({@link Await}) that is a failure bound only. Where a test
 * must show that something did <em>not</em> happen (an unsignalled request made no completion, a write consumed no
 * receive), it proves it by order: a later request whose completion comes first.
 *
 * <p>Subclasses implement {@link #providerName()}, {@link #deviceOptions()} and {@link #address(String)}. Each test
 * gets a fresh, short {@link #scratchDirectory()} under {@code /tmp} (UNIX socket paths must stay under 107 bytes),
 * deleted afterwards; a provider that keeps files puts them there through {@link #deviceOptions()}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class ProviderConformanceTest {

    protected static final int PAGE = PageSize.get();

    /** A region a peer may write: receive rings, credit words. */
    static final int WRITABLE = Access.LOCAL_WRITE | Access.REMOTE_WRITE;
    /** A region a peer may write and read. */
    static final int ALL_ACCESS = WRITABLE | Access.REMOTE_READ;
    /** No access flag at all: the adapter may only read the region locally (a send source). */
    static final int LOCAL_READ_ONLY = 0;
    /** Fills regions before a test so that bytes nobody should have touched can be checked. */
    static final byte SENTINEL = 0x5A;

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    /**
     * What the sender of a SEND larger than the receive it lands in gets. Verbs hardware NAKs it as an invalid
     * request (mlx5: {@code IBV_WC_REM_INV_REQ_ERR}); the IB spec also allows a remote operational error. Both tell
     * the sender the same thing: the peer's receive was too small, the connection is now in the error state.
     */
    static final Set<Integer> OVERSIZED_SEND_SENDER_STATUSES = Set.of(REM_INV_REQ_ERR, REM_OP_ERR);

    /**
     * What an RDMA READ into a region without {@link Access#LOCAL_WRITE} gets: verbs hardware reports a local
     * protection error (mlx5), the SPI's {@link CompletionStatus#explain} suggests a local access error; both say
     * "your local region does not allow this".
     */
    static final Set<Integer> READ_INTO_READ_ONLY_STATUSES = Set.of(LOC_PROT_ERR, LOC_ACCESS_ERR);

    /**
     * What a request whose local buffer is outside its region (a wrong or deregistered lkey, a range past its ends)
     * gets: a local protection error on hardware (mlx5); Soft-RoCE ({@code rxe}) reports a bad lkey as a local queue
     * pair operation error. Both say "a local buffer of this request is not yours".
     */
    static final Set<Integer> LOCAL_FAULT_STATUSES = Set.of(LOC_PROT_ERR, LOC_QP_OP_ERR);

    /**
     * What the receive of a SEND larger than it gets: a local length error on hardware; Soft-RoCE reports a local
     * queue pair operation error.
     */
    static final Set<Integer> SHORT_RECEIVE_STATUSES = Set.of(LOC_LEN_ERR, LOC_QP_OP_ERR);

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final AtomicInteger names = new AtomicInteger();
    @ShmTestDirectory
    private Path scratch;
    private Set<Thread> threadsBefore;
    private ExecutorService connector;

    // ------------------------------------------------------------------------------------------------ provider hooks

    /** @return the name {@link RdmaProviders#named(String)} finds the provider under */
    protected abstract String providerName();

    /**
     * @return options to open a device with; called for every device a test opens (several per test), each call
     * giving options under which the devices of one test (and a second JVM given the same options) can connect to
     * each other; files belong under {@link #scratchDirectory()}
     */
    protected abstract DeviceOptions deviceOptions();

    /**
     * @param role the endpoint's role in the test: {@code server...} for the side that listens, anything else
     * ({@code client...}, {@code other}, {@code peer} for a peer JVM) for a side that connects
     * @return options to open that side's device with: {@link #deviceOptions()}, unless a subclass puts the listening
     * and the connecting sides on different devices (the verbs suite across the Soft-RoCE guest's two nodes, where
     * a connection leaves through one device and arrives at the other)
     */
    protected DeviceOptions deviceOptions(final String role) {
        return deviceOptions();
    }

    /**
     * @param uniqueName a short name, unique within the test, made of letters, digits and dashes
     * @return an address, in the provider's form, that a device can listen on and another device can connect to
     */
    protected abstract String address(String uniqueName);

    /**
     * @return the events a provider may report when the peer's process is killed: {@code PEER_LOST} where the
     * provider can tell a death from a disconnect (shared memory); verbs cannot, since the kernel disconnects the
     * connections of a process that dies, so a provider may add {@code DISCONNECTED}
     */
    protected Set<ConnectionEvent.Type> eventsOfAKilledPeer() {
        return Set.of(ConnectionEvent.Type.PEER_LOST);
    }

    /**
     * @return the events a provider may report on the responder when the requester broke its access rules:
     * {@code QUEUE_PAIR_ERROR}; a provider whose adapter raises no event on the responder side (Soft-RoCE) learns it
     * when the requester's provider disconnects the broken connection, and may add {@code DISCONNECTED}
     */
    protected Set<ConnectionEvent.Type> eventsOfAResponderAtFault() {
        return Set.of(ConnectionEvent.Type.QUEUE_PAIR_ERROR);
    }

    /** @return a fresh directory for this test, under {@code /tmp} with a short name; deleted after the test */
    protected final Path scratchDirectory() {
        return scratch;
    }

    @BeforeEach
    protected final void setUpConformance() {
        threadsBefore = Set.copyOf(Thread.getAllStackTraces().keySet());
        connector = Executors.newSingleThreadExecutor(task -> new Thread(task, "conformance-connect"));
    }

    @AfterEach
    protected final void tearDownConformance() {
        AssertionError failure = null;
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (final Exception | Error ex) {
                if (failure == null) {
                    failure = new AssertionError("closing what the test opened failed", ex);
                } else {
                    failure.addSuppressed(ex);
                }
            }
        }
        connector.shutdownNow();
        if (failure != null) {
            throw failure;
        }
    }

    // ------------------------------------------------------------------------------------------- discovery, limits

    @Test
    public void providerIsFoundByNameIsAvailableAndDescribesItsDevice() {
        final RdmaProvider provider = RdmaProviders.named(providerName());
        assertThat(provider.name()).isEqualTo(providerName());
        assertThat(RdmaProviders.all()).extracting(RdmaProvider::name).contains(providerName());
        final Availability availability = provider.availability();
        assertThat(availability.available()).as("availability: %s", availability.reason()).isTrue();

        final RdmaDevice device = openDevice();
        assertThat(device.providerName()).isEqualTo(providerName());
        assertThat(device.name()).isNotBlank();
        final DeviceLimits limits = device.limits();
        assertThat(limits.maxSge()).as("maxSge").isPositive();
        assertThat(limits.maxInlineData()).as("maxInlineData").isNotNegative();
        assertThat(limits.maxQueuePairDepth()).as("maxQueuePairDepth").isPositive();
        assertThat(limits.maxCompletionQueueCapacity()).as("maxCompletionQueueCapacity").isPositive();
        assertThat(limits.maxMessageLength()).as("maxMessageLength").isGreaterThanOrEqualTo(PAGE);
        assertThat(limits.maxRegisteredBytes()).as("maxRegisteredBytes").isGreaterThanOrEqualTo(PAGE);
        // the protocol's connect handshake takes 40 bytes; rdma_cm carries 56 in a connect request (verbs keeps one
        // of them to frame the length, so that private data arrives exactly)
        assertThat(limits.maxPrivateDataLength()).as("maxPrivateDataLength").isGreaterThanOrEqualTo(40);
        // and its reject (104 bytes: a reason of up to 96) for what rdma_cm carries in a reject, 148 bytes
        assertThat(limits.maxRejectPrivateDataLength()).as("maxRejectPrivateDataLength").isGreaterThanOrEqualTo(104);
        if (device.capabilities().contains(DeviceCapability.SCATTER_GATHER)) {
            assertThat(limits.maxSge()).as("maxSge of a device with SCATTER_GATHER").isGreaterThan(1);
        }
        if (device.capabilities().contains(DeviceCapability.INLINE_DATA)) {
            assertThat(limits.maxInlineData()).as("maxInlineData of a device with INLINE_DATA").isPositive();
        }
    }

    // ---------------------------------------------------------------------------------- registration, deregistration

    @Test
    public void allocatedRegionReportsItsRangeKeysAndAccessAndCountsAsRegisteredUntilClosed() {
        final RdmaDevice device = openDevice();
        final long before = device.registeredBytes();

        final MemoryRegion shared = device.allocateRegion(2L * PAGE, ALL_ACCESS);
        final MemoryRegion local = device.allocateRegion(PAGE, Access.LOCAL_WRITE);

        assertThat(shared.length()).isEqualTo(2L * PAGE);
        assertThat(local.length()).isEqualTo(PAGE);
        assertThat(shared.address()).as("address").isNotZero();
        assertThat(shared.address() % PAGE).as("address 0x%x is page aligned", shared.address()).isZero();
        assertThat(local.address() % PAGE).as("address 0x%x is page aligned", local.address()).isZero();
        assertThat(shared.address() + shared.length() <= local.address()
            || local.address() + local.length() <= shared.address())
            .as("ranges of two live regions do not overlap: 0x%x+%d and 0x%x+%d", shared.address(), shared.length(),
                local.address(), local.length()).isTrue();
        assertThat(shared.access()).as(Access.toString(shared.access())).isEqualTo(ALL_ACCESS);
        assertThat(local.access()).as(Access.toString(local.access())).isEqualTo(Access.LOCAL_WRITE);
        assertThat(shared.lkey()).as("lkeys of two live regions").isNotEqualTo(local.lkey());
        assertThat(shared.rkey()).as("rkeys of two live regions").isNotEqualTo(local.rkey());
        assertThat(shared.isRegistered()).isTrue();
        assertThat(local.isRegistered()).isTrue();
        assertThat(device.registeredBytes()).as("registered bytes with both regions").isEqualTo(before + 3L * PAGE);

        assertThat(shared.buffer().capacity()).as("buffer capacity").isEqualTo(2 * PAGE);
        shared.buffer().putLong(8, 0x0123_4567_89AB_CDEFL);
        shared.buffer().putByte(2 * PAGE - 1, (byte) 0x7E);
        assertThat(shared.buffer().getLong(8)).isEqualTo(0x0123_4567_89AB_CDEFL);
        assertThat(shared.buffer().getByte(2 * PAGE - 1)).isEqualTo((byte) 0x7E);

        local.close();
        local.close();
        assertThat(local.isRegistered()).as("a region with no work on it is deregistered by close()").isFalse();
        assertThat(device.registeredBytes()).isEqualTo(before + 2L * PAGE);
        assertThat(shared.isRegistered()).as("closing one region leaves the other").isTrue();
        shared.close();
        assertThat(shared.isRegistered()).isFalse();
        assertThat(device.registeredBytes()).as("registered bytes after closing every region").isEqualTo(before);
    }

    @Test
    public void registeredCallerMemoryIsSentFromAndStaysAliveUntilDeregistered() {
        final Endpoints ep = connect();
        final OffHeapMemory memory = own(OffHeapMemory.allocate(PAGE));
        final long before = ep.client().device.registeredBytes();

        final MemoryRegion mine = ep.client().device.register(memory, Access.LOCAL_WRITE);
        assertThat(mine.length()).isEqualTo(memory.length());
        assertThat(mine.access()).isEqualTo(Access.LOCAL_WRITE);
        assertThat(mine.isRegistered()).isTrue();
        assertThat(ep.client().device.registeredBytes()).isEqualTo(before + PAGE);

        memory.close();
        assertThat(memory.isFreed()).as("memory the registration holds a lease on is not freed by its owner").isFalse();

        final byte[] payload = pattern(300, 5);
        mine.buffer().putBytes(100, payload);
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, Access.LOCAL_WRITE));
        ep.server().receive(1, target, 0, 512);
        ep.client().send(s -> s.add(7, SEND, SendFlags.SIGNALED).sge(mine.address() + 100, 300, mine.lkey()));

        assertSendSuccess(ep.client().awaitSendCompletion(), 7, SEND, ep.client());
        assertReceiveSuccess(ep.server().awaitReceiveCompletion(), 1, CompletionOpcode.RECV, 300, null, ep.server());
        assertThat(bytes(target, 0, 300)).isEqualTo(payload);

        mine.close();
        Await.until(() -> "the region of caller memory to be deregistered", () -> !mine.isRegistered());
        Await.until(() -> "the caller's memory to be freed once deregistered and closed by its owner",
            memory::isFreed);
        assertThat(ep.client().device.registeredBytes()).isEqualTo(before);
    }

    @Test
    public void registeringBeyondMaxRegisteredBytesFailsWithRegistrationLimitException() {
        final RdmaDevice device = own(RdmaProviders.named(providerName())
            .open(withMaxRegisteredBytes(deviceOptions(), 2L * PAGE)));
        final MemoryRegion first = device.allocateRegion(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion second = device.allocateRegion(PAGE, Access.LOCAL_WRITE);
        assertThat(device.registeredBytes()).isEqualTo(2L * PAGE);

        assertThatThrownBy(() -> device.allocateRegion(PAGE, Access.LOCAL_WRITE))
            .isInstanceOf(RegistrationLimitException.class)
            .message().isNotBlank();
        assertThat(device.registeredBytes()).as("a refused registration counts nothing").isEqualTo(2L * PAGE);

        first.close();
        final MemoryRegion third = device.allocateRegion(PAGE, Access.LOCAL_WRITE);
        assertThat(third.isRegistered()).as("deregistering makes room again").isTrue();
        assertThat(second.isRegistered()).isTrue();
    }

    @Test
    public void rdmaWriteWithTheRkeyOfADeregisteredRegionFailsWithRemoteAccessError() {
        final Endpoints ep = connect();
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion gone = ep.server().region(PAGE, WRITABLE);
        final long address = gone.address();
        final int rkey = gone.rkey();
        gone.close();
        assertThat(gone.isRegistered()).isFalse();

        ep.client().send(s -> s.add(5, RDMA_WRITE, SendFlags.SIGNALED).sge(source.address(), 64, source.lkey())
            .remote(address, rkey));

        assertFailure(ep.client().awaitSendCompletion(), 5, REM_ACCESS_ERR, ep.client());
        ep.client().awaitState(QueuePairState.ERROR);
    }

    // ----------------------------------------------------------------------------------------------------- opcodes

    @Test
    public void sendDeliversItsBytesIntoThePostedReceive() {
        final Endpoints ep = connect();
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, Access.LOCAL_WRITE));
        final byte[] payload = pattern(100, 1);
        source.buffer().putBytes(128, payload);

        ep.server().receive(100, target, 64, 256);
        ep.client().send(s -> s.add(1, SEND, SendFlags.SIGNALED).sge(source.address() + 128, 100, source.lkey()));

        assertSendSuccess(ep.client().awaitSendCompletion(), 1, SEND, ep.client());
        assertReceiveSuccess(ep.server().awaitReceiveCompletion(), 100, CompletionOpcode.RECV, 100, null, ep.server());
        assertThat(bytes(target, 64, 100)).isEqualTo(payload);
        assertUntouched(target, 0, 64);
        assertUntouched(target, 164, PAGE - 164);
    }

    @ParameterizedTest(name = "immediate {0}")
    @ValueSource(ints = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x12345678, 0x80FF0001})
    public void sendWithImmediateCarriesTheImmediateIntoTheReceiveCompletion(final int immediate) {
        final Endpoints ep = connect();
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, Access.LOCAL_WRITE));
        final byte[] payload = pattern(33, 2);
        source.buffer().putBytes(0, payload);

        ep.server().receive(200, target, 0, 64);
        ep.client().send(s -> s.add(2, SEND_WITH_IMM, SendFlags.SIGNALED).sge(source.address(), 33, source.lkey())
            .immediate(immediate));

        assertSendSuccess(ep.client().awaitSendCompletion(), 2, SEND_WITH_IMM, ep.client());
        assertReceiveSuccess(ep.server().awaitReceiveCompletion(), 200, CompletionOpcode.RECV, 33, immediate,
            ep.server());
        assertThat(bytes(target, 0, 33)).isEqualTo(payload);
        assertUntouched(target, 33, 64 - 33);
    }

    @Test
    public void sendWithoutPayloadCompletesTheReceiveWithZeroBytes() {
        final Endpoints ep = connect();
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, Access.LOCAL_WRITE));

        ep.server().receive(300, target, 0, 64);
        ep.client().send(s -> s.add(3, SEND, SendFlags.SIGNALED));

        assertSendSuccess(ep.client().awaitSendCompletion(), 3, SEND, ep.client());
        assertReceiveSuccess(ep.server().awaitReceiveCompletion(), 300, CompletionOpcode.RECV, 0, null, ep.server());
        assertUntouched(target, 0, PAGE);
    }

    @Test
    public void rdmaWriteLandsAtTheRemoteOffsetAndConsumesNoReceive() {
        final Endpoints ep = connect();
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = sentinelFilled(ep.server().region(2L * PAGE, WRITABLE));
        final byte[] payload = pattern(300, 3);
        source.buffer().putBytes(10, payload);

        ep.server().receive(9, target, PAGE, 64);
        ep.client().send(s -> s.add(1, RDMA_WRITE, SendFlags.SIGNALED).sge(source.address() + 10, 300, source.lkey())
            .remote(target.address() + 1000, target.rkey()));
        assertSendSuccess(ep.client().awaitSendCompletion(), 1, RDMA_WRITE, ep.client());

        // the SEND after the write takes the receive the write left alone (and fences the written bytes)
        ep.client().send(s -> s.add(2, SEND, SendFlags.SIGNALED));
        assertSendSuccess(ep.client().awaitSendCompletion(), 2, SEND, ep.client());
        assertReceiveSuccess(ep.server().awaitReceiveCompletion(), 9, CompletionOpcode.RECV, 0, null, ep.server());

        assertThat(bytes(target, 1000, 300)).isEqualTo(payload);
        assertUntouched(target, 0, 1000);
        assertUntouched(target, 1300, 2 * PAGE - 1300);
    }

    @ParameterizedTest(name = "immediate {0}")
    @ValueSource(ints = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x12345678})
    public void rdmaWriteWithImmediateLandsItsBytesAndCompletesAZeroLengthReceiveWithTheImmediate(
        final int immediate) {
        final Endpoints ep = connect();
        assumeCapability(ep.client(), DeviceCapability.WRITE_WITH_IMMEDIATE);
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = sentinelFilled(ep.server().region(2L * PAGE, WRITABLE));
        final byte[] payload = pattern(200, 4);
        source.buffer().putBytes(0, payload);

        ep.server().receiveNothing(55);
        ep.client().send(s -> s.add(3, RDMA_WRITE_WITH_IMM, SendFlags.SIGNALED).sge(source.address(), 200,
            source.lkey()).remote(target.address() + PAGE + 8, target.rkey()).immediate(immediate));

        assertSendSuccess(ep.client().awaitSendCompletion(), 3, RDMA_WRITE_WITH_IMM, ep.client());
        assertReceiveSuccess(ep.server().awaitReceiveCompletion(), 55, CompletionOpcode.RECV_RDMA_WITH_IMM, 200,
            immediate, ep.server());
        assertThat(bytes(target, PAGE + 8, 200)).isEqualTo(payload);
        assertUntouched(target, 0, PAGE + 8);
        assertUntouched(target, PAGE + 208, PAGE - 208);
    }

    // ----------------------------------------------------------------------------------------------------- atomics

    private static final int ATOMIC_TARGET = Access.LOCAL_WRITE | Access.REMOTE_ATOMIC;

    private static long word(final MemoryRegion region, final int offset) {
        return region.buffer().getLong(offset, java.nio.ByteOrder.nativeOrder());
    }

    @Test
    public void fetchAndAddAddsToThePeersWordAndReturnsItsValueBefore() {
        final Endpoints ep = connect();
        assumeCapability(ep.client(), DeviceCapability.ATOMICS);
        final MemoryRegion remote = ep.server().region(PAGE, ATOMIC_TARGET);
        final MemoryRegion local = sentinelFilled(ep.client().region(PAGE, Access.LOCAL_WRITE));
        remote.buffer().putLong(64, 40L, java.nio.ByteOrder.nativeOrder());
        remote.buffer().putLong(72, -1L, java.nio.ByteOrder.nativeOrder());

        ep.client().send(s -> s.add(7, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, SendFlags.SIGNALED)
            .sge(local.address() + 16, 8, local.lkey()).remote(remote.address() + 64, remote.rkey()).atomic(2, 0));
        assertSendSuccess(ep.client().awaitSendCompletion(), 7, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, ep.client());
        assertThat(word(local, 16)).as("the word's value before").isEqualTo(40L);
        assertThat(word(remote, 64)).as("the word after").isEqualTo(42L);
        assertThat(word(remote, 72)).as("the next word").isEqualTo(-1L);
        assertUntouched(local, 0, 16);
        assertUntouched(local, 24, PAGE - 24);

        // a negative addend subtracts, and the sum wraps as a 64-bit two's complement
        remote.buffer().putLong(64, Long.MAX_VALUE, java.nio.ByteOrder.nativeOrder());
        ep.client().send(s -> s.add(8, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, SendFlags.SIGNALED)
            .sge(local.address() + 16, 8, local.lkey()).remote(remote.address() + 64, remote.rkey()).atomic(1, 0));
        assertSendSuccess(ep.client().awaitSendCompletion(), 8, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, ep.client());
        assertThat(word(local, 16)).isEqualTo(Long.MAX_VALUE);
        assertThat(word(remote, 64)).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    public void compareAndSwapReplacesThePeersWordOnlyWhenItHoldsTheExpectedValue() {
        final Endpoints ep = connect();
        assumeCapability(ep.client(), DeviceCapability.ATOMICS);
        final MemoryRegion remote = ep.server().region(PAGE, ATOMIC_TARGET);
        final MemoryRegion local = ep.client().region(PAGE, Access.LOCAL_WRITE);
        remote.buffer().putLong(128, 42L, java.nio.ByteOrder.nativeOrder());

        ep.client().send(s -> s.add(1, WorkRequestOpcode.ATOMIC_CMP_AND_SWP, SendFlags.SIGNALED)
            .sge(local.address(), 8, local.lkey()).remote(remote.address() + 128, remote.rkey()).atomic(42, 7));
        assertSendSuccess(ep.client().awaitSendCompletion(), 1, WorkRequestOpcode.ATOMIC_CMP_AND_SWP, ep.client());
        assertThat(word(local, 0)).as("the value before the swap").isEqualTo(42L);
        assertThat(word(remote, 128)).as("swapped").isEqualTo(7L);

        ep.client().send(s -> s.add(2, WorkRequestOpcode.ATOMIC_CMP_AND_SWP, SendFlags.SIGNALED)
            .sge(local.address() + 8, 8, local.lkey()).remote(remote.address() + 128, remote.rkey()).atomic(42, 9));
        assertSendSuccess(ep.client().awaitSendCompletion(), 2, WorkRequestOpcode.ATOMIC_CMP_AND_SWP, ep.client());
        assertThat(word(local, 8)).as("the value found, not the one expected").isEqualTo(7L);
        assertThat(word(remote, 128)).as("not swapped: it did not hold 42").isEqualTo(7L);
    }

    @Test
    public void anAtomicOnARegionWithoutRemoteAtomicFailsWithRemoteAccessErrorAndLeavesTheWord() {
        final Endpoints ep = connect();
        assumeCapability(ep.client(), DeviceCapability.ATOMICS);
        final MemoryRegion remote = ep.server().region(PAGE, WRITABLE | Access.REMOTE_READ);
        final MemoryRegion local = ep.client().region(PAGE, Access.LOCAL_WRITE);
        remote.buffer().putLong(0, 5L, java.nio.ByteOrder.nativeOrder());

        ep.client().send(s -> s.add(3, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, SendFlags.SIGNALED)
            .sge(local.address(), 8, local.lkey()).remote(remote.address(), remote.rkey()).atomic(1, 0));
        assertFailure(ep.client().awaitSendCompletion(), 3, REM_ACCESS_ERR, ep.client());
        assertThat(word(remote, 0)).isEqualTo(5L);
        ep.client().awaitState(QueuePairState.ERROR);
    }

    @Test
    public void aMisalignedAtomicOrOneWithoutItsEightByteBufferIsRefusedAndTouchesNothing() {
        final Endpoints ep = connect();
        assumeCapability(ep.client(), DeviceCapability.ATOMICS);
        final MemoryRegion remote = ep.server().region(PAGE, ATOMIC_TARGET);
        final MemoryRegion local = ep.client().region(PAGE, Access.LOCAL_WRITE);
        remote.buffer().putLong(0, 11L, java.nio.ByteOrder.nativeOrder());
        remote.buffer().putLong(8, 12L, java.nio.ByteOrder.nativeOrder());

        // a word at offset 4: refused at post (as verbs providers check), or failed by the responder
        final int misaligned = ep.client().trySend(s -> s.add(4, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD,
            SendFlags.SIGNALED).sge(local.address(), 8, local.lkey()).remote(remote.address() + 4, remote.rkey())
            .atomic(1, 0));
        if (misaligned == PostStatus.OK) {
            final CompletionRecord wc = ep.client().awaitSendCompletion();
            assertThat(wc.status()).as("a misaligned atomic that was posted: %s", wc).isNotEqualTo(SUCCESS);
        } else {
            assertThat(misaligned).as(PostStatus.name(misaligned)).isEqualTo(PostStatus.INVALID);
            // a 4-byte local buffer
            assertThat(ep.client().trySend(s -> s.add(5, WorkRequestOpcode.ATOMIC_CMP_AND_SWP, SendFlags.SIGNALED)
                .sge(local.address(), 4, local.lkey()).remote(remote.address(), remote.rkey()).atomic(11, 1)))
                .isEqualTo(PostStatus.INVALID);
        }
        assertThat(word(remote, 0)).isEqualTo(11L);
        assertThat(word(remote, 8)).isEqualTo(12L);
    }

    @Test
    public void fetchAndAddsFromTwoProcessesOnOneWordAreAtomicWithEachOther() {
        final Endpoint server = endpoint("server");
        assumeCapability(server, DeviceCapability.ATOMICS);
        final Endpoint second = new Endpoint("server-2", server.device); // a second queue pair on the same device
        final String address = uniqueAddress();
        final Listener listener = own(server.device.listen(address));
        final MemoryRegion region = server.region(4L * PAGE, ALL_ACCESS | Access.REMOTE_ATOMIC);
        final ChildJvm first = startPeer(address, "add");
        final long[] firstRegion = handshakeWithPeer(server, listener, region, first);
        final ChildJvm other = startPeer(address, "add");
        final long[] otherRegion = handshakeWithPeer(second, listener, region, other);
        region.buffer().putLong(ConformancePeer.ATOMIC_OFFSET, 1_000L, java.nio.ByteOrder.nativeOrder());

        // both start at once: GO into the second word of each peer's region
        region.buffer().putInt(PAGE, ConformancePeer.GO);
        server.send(s -> s.add(200, RDMA_WRITE, SendFlags.SIGNALED).sge(region.address() + PAGE, 4, region.lkey())
            .remote(firstRegion[0] + 8, (int) firstRegion[1]));
        second.send(s -> s.add(201, RDMA_WRITE, SendFlags.SIGNALED).sge(region.address() + PAGE, 4, region.lkey())
            .remote(otherRegion[0] + 8, (int) otherRegion[1]));
        assertSendSuccess(server.awaitSendCompletion(), 200, RDMA_WRITE, server);
        assertSendSuccess(second.awaitSendCompletion(), 201, RDMA_WRITE, second);

        first.awaitLine("ADDED");
        other.awaitLine("ADDED");
        assertThat(region.buffer().getLong(ConformancePeer.ATOMIC_OFFSET, java.nio.ByteOrder.nativeOrder()))
            .as("the word after %d adds of 1 from each of two processes", ConformancePeer.ADDS)
            .isEqualTo(1_000L + 2L * ConformancePeer.ADDS);
        assertThat(first.awaitExit()).as("the first peer's exit code%s", first.describe()).isZero();
        assertThat(other.awaitExit()).as("the other peer's exit code%s", other.describe()).isZero();
    }

    @Test
    public void rdmaReadCopiesRemoteBytesIntoTheLocalRegion() {
        final Endpoints ep = connect();
        assumeCapability(ep.client(), DeviceCapability.RDMA_READ);
        final MemoryRegion remote = ep.server().region(PAGE, Access.LOCAL_WRITE | Access.REMOTE_READ);
        final MemoryRegion local = sentinelFilled(ep.client().region(PAGE, Access.LOCAL_WRITE));
        final byte[] payload = pattern(256, 5);
        remote.buffer().putBytes(512, payload);

        ep.client().send(s -> s.add(4, RDMA_READ, SendFlags.SIGNALED).sge(local.address() + 100, 256, local.lkey())
            .remote(remote.address() + 512, remote.rkey()));

        assertSendSuccess(ep.client().awaitSendCompletion(), 4, RDMA_READ, ep.client());
        assertThat(bytes(local, 100, 256)).isEqualTo(payload);
        assertUntouched(local, 0, 100);
        assertUntouched(local, 356, PAGE - 356);
    }

    // ------------------------------------------------------------------------------------------------------ order

    @Test
    public void completionsComeInPostOrderWithinAndAcrossBatchesAndReceivesInReceiveOrder() {
        final Endpoints ep = connect();
        final Set<DeviceCapability> capabilities = ep.client().device.capabilities();
        final List<Integer> cycle = new ArrayList<>(List.of(RDMA_WRITE, SEND, SEND_WITH_IMM));
        if (capabilities.contains(DeviceCapability.WRITE_WITH_IMMEDIATE)) {
            cycle.add(2, RDMA_WRITE_WITH_IMM);
        }
        if (capabilities.contains(DeviceCapability.RDMA_READ)) {
            cycle.add(RDMA_READ);
        }
        final int total = 40;
        final int[] opcodes = new int[total];
        final List<Integer> consumers = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            opcodes[i] = cycle.get(i % cycle.size());
            if (WorkRequestOpcode.consumesReceive(opcodes[i])) {
                consumers.add(i);
            }
        }
        final MemoryRegion source = ep.client().region(2L * PAGE, Access.LOCAL_WRITE);
        final MemoryRegion remote = ep.server().region(2L * PAGE, ALL_ACCESS);
        final MemoryRegion inbox = ep.server().region(PAGE, Access.LOCAL_WRITE);
        for (int i = 0; i < total; i++) {
            source.buffer().putLong(i * 8, 1000 + i);
            remote.buffer().putLong(PAGE + i * 8, 5000 + i);
        }

        // receives in two posts, then sends: one batch of 16, then three posts of 8
        final int firstReceives = consumers.size() / 2;
        ep.server().receive(r -> {
            for (int k = 0; k < firstReceives; k++) {
                r.add(10_000 + k).sge(inbox.address() + k * 8L, 8, inbox.lkey());
            }
        });
        ep.server().receive(r -> {
            for (int k = firstReceives; k < consumers.size(); k++) {
                r.add(10_000 + k).sge(inbox.address() + k * 8L, 8, inbox.lkey());
            }
        });
        final int[][] posts = {{0, 16}, {16, 24}, {24, 32}, {32, 40}};
        for (final int[] post : posts) {
            ep.client().send(s -> {
                for (int i = post[0]; i < post[1]; i++) {
                    s.add(i, opcodes[i], SendFlags.NONE);
                    if (opcodes[i] == RDMA_READ) {
                        s.sge(source.address() + PAGE + i * 8L, 8, source.lkey())
                            .remote(remote.address() + PAGE + i * 8L, remote.rkey());
                    } else {
                        s.sge(source.address() + i * 8L, 8, source.lkey());
                    }
                    if (opcodes[i] == RDMA_WRITE || opcodes[i] == RDMA_WRITE_WITH_IMM) {
                        s.remote(remote.address() + i * 8L, remote.rkey());
                    }
                    if (WorkRequestOpcode.hasImmediate(opcodes[i])) {
                        s.immediate(i);
                    }
                }
            });
        }

        final List<CompletionRecord> sent = ep.client().awaitSendCompletions(total);
        assertThat(sent).extracting(CompletionRecord::wrId).as("send completions in post order")
            .containsExactlyElementsOf(Stream.iterate(0L, i -> i + 1).limit(total).toList());
        for (int i = 0; i < total; i++) {
            assertSendSuccess(sent.get(i), i, opcodes[i], ep.client());
        }
        final List<CompletionRecord> received = ep.server().awaitReceiveCompletions(consumers.size());
        assertThat(received).extracting(CompletionRecord::wrId).as("receive completions in receive order")
            .containsExactlyElementsOf(Stream.iterate(10_000L, k -> k + 1).limit(consumers.size()).toList());
        for (int k = 0; k < consumers.size(); k++) {
            final int i = consumers.get(k);
            final boolean write = opcodes[i] == RDMA_WRITE_WITH_IMM;
            assertReceiveSuccess(received.get(k), 10_000 + k,
                write ? CompletionOpcode.RECV_RDMA_WITH_IMM : CompletionOpcode.RECV, 8,
                WorkRequestOpcode.hasImmediate(opcodes[i]) ? i : null, ep.server());
            if (!write) {
                assertThat(inbox.buffer().getLong(k * 8)).as("payload of receive %d (request %d)", k, i)
                    .isEqualTo(1000 + i);
            }
        }
        fence(ep);
        for (int i = 0; i < total; i++) {
            if (opcodes[i] == RDMA_WRITE || opcodes[i] == RDMA_WRITE_WITH_IMM) {
                assertThat(remote.buffer().getLong(i * 8)).as("bytes of write %d", i).isEqualTo(1000 + i);
            } else if (opcodes[i] == RDMA_READ) {
                assertThat(source.buffer().getLong(PAGE + i * 8)).as("bytes of read %d", i).isEqualTo(5000 + i);
            }
        }
    }

    @Test
    public void unsignalledRequestsCompleteSilentlyWhenNotSignallingEveryRequest() {
        final Endpoints ep = connect(options -> options.signalAll(false));
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, WRITABLE));
        for (int i = 0; i < 8; i++) {
            source.buffer().putLong(i * 8, 7000 + i);
        }

        ep.client().send(s -> {
            for (int i = 0; i < 6; i++) {
                s.add(i, RDMA_WRITE, i == 5 ? SendFlags.SIGNALED : SendFlags.NONE)
                    .sge(source.address() + i * 8L, 8, source.lkey()).remote(target.address() + i * 8L, target.rkey());
            }
        });
        final CompletionRecord first = ep.client().awaitSendCompletion();
        assertSendSuccess(first, 5, RDMA_WRITE, ep.client());

        ep.server().receiveNothing(1);
        ep.client().send(s -> s
            .add(6, RDMA_WRITE, SendFlags.NONE).sge(source.address() + 48, 8, source.lkey())
            .remote(target.address() + 48, target.rkey())
            .add(7, SEND, SendFlags.SIGNALED));
        assertSendSuccess(ep.client().awaitSendCompletion(), 7, SEND, ep.client());
        assertReceiveSuccess(ep.server().awaitReceiveCompletion(), 1, CompletionOpcode.RECV, 0, null, ep.server());

        // requests complete in order: had the unsignalled ones made completions, they would have come first
        assertThat(Completions.drainNow(ep.client().sendCq)).as("completions of unsignalled requests").isEmpty();
        for (int i = 0; i < 7; i++) {
            assertThat(target.buffer().getLong(i * 8)).as("bytes of unsignalled write %d", i).isEqualTo(7000 + i);
        }
    }

    @Test
    public void failingUnsignalledRequestStillCompletesWithItsError() {
        final Endpoints ep = connect(options -> options.signalAll(false));
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = ep.server().region(PAGE, WRITABLE);

        ep.client().send(s -> s.add(1, RDMA_WRITE, SendFlags.NONE).sge(source.address(), 8, source.lkey())
            .remote(target.address(), ~target.rkey()));

        assertFailure(ep.client().awaitSendCompletion(), 1, REM_ACCESS_ERR, ep.client());
    }

    // ------------------------------------------------------------------------------------ scatter, gather, inline

    @Test
    public void sendGathersThreeEntriesAndTheReceiveScattersThemIntoTwo() {
        final Endpoints ep = connect();
        assumeCapability(ep.client(), DeviceCapability.SCATTER_GATHER);
        assumeTrue(ep.client().device.limits().maxSge() >= 3 && ep.server().device.limits().maxSge() >= 3,
            "the devices allow at least 3 gather entries");
        final MemoryRegion first = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion second = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final byte[] a = pattern(5, 11);
        final byte[] b = pattern(7, 12);
        final byte[] c = pattern(11, 13);
        first.buffer().putBytes(10, a);
        second.buffer().putBytes(300, b);
        first.buffer().putBytes(2000, c);
        final byte[] whole = concat(a, b, c);
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, Access.LOCAL_WRITE));

        ep.server().receive(r -> r.add(77).sge(target.address(), 8, target.lkey())
            .sge(target.address() + 1000, 100, target.lkey()));
        ep.client().send(s -> s.add(1, SEND, SendFlags.SIGNALED)
            .sge(first.address() + 10, 5, first.lkey())
            .sge(second.address() + 300, 7, second.lkey())
            .sge(first.address() + 2000, 11, first.lkey()));

        assertSendSuccess(ep.client().awaitSendCompletion(), 1, SEND, ep.client());
        assertReceiveSuccess(ep.server().awaitReceiveCompletion(), 77, CompletionOpcode.RECV, whole.length, null,
            ep.server());
        assertThat(bytes(target, 0, 8)).as("first scatter entry").isEqualTo(Arrays.copyOfRange(whole, 0, 8));
        assertThat(bytes(target, 1000, whole.length - 8)).as("second scatter entry")
            .isEqualTo(Arrays.copyOfRange(whole, 8, whole.length));
        assertUntouched(target, 8, 1000 - 8);
        assertUntouched(target, 1000 + whole.length - 8, PAGE - 1000 - (whole.length - 8));
    }

    @Test
    public void rdmaWriteGathersThreeEntriesIntoOneContiguousRemoteRange() {
        final Endpoints ep = connect();
        assumeCapability(ep.client(), DeviceCapability.SCATTER_GATHER);
        assumeTrue(ep.client().device.limits().maxSge() >= 3, "the device allows at least 3 gather entries");
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final byte[] a = pattern(9, 21);
        final byte[] b = pattern(1, 22);
        final byte[] c = pattern(100, 23);
        source.buffer().putBytes(3000, a);
        source.buffer().putBytes(7, b);
        source.buffer().putBytes(1500, c);
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, WRITABLE));

        ep.client().send(s -> s.add(1, RDMA_WRITE, SendFlags.SIGNALED)
            .sge(source.address() + 3000, 9, source.lkey())
            .sge(source.address() + 7, 1, source.lkey())
            .sge(source.address() + 1500, 100, source.lkey())
            .remote(target.address() + 500, target.rkey()));
        assertSendSuccess(ep.client().awaitSendCompletion(), 1, RDMA_WRITE, ep.client());
        fence(ep);

        assertThat(bytes(target, 500, 110)).isEqualTo(concat(a, b, c));
        assertUntouched(target, 0, 500);
        assertUntouched(target, 610, PAGE - 610);
    }

    @Test
    public void inlineSendCopiesThePayloadAtPostTimeSoTheBufferIsReusableAtOnce() {
        final Endpoints ep = connect();
        assumeCapability(ep.client(), DeviceCapability.INLINE_DATA);
        assumeTrue(ep.client().device.limits().maxInlineData() >= 40, "the device inlines at least 40 bytes");
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final byte[] payload = pattern(40, 31);
        source.buffer().putBytes(8, payload);
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, Access.LOCAL_WRITE));

        ep.server().receive(1, target, 0, 64);
        ep.client().send(s -> s.add(1, SEND, SendFlags.SIGNALED | SendFlags.INLINE)
            .sge(source.address() + 8, 40, source.lkey()));
        source.buffer().setMemory(8, 40, (byte) 0);

        assertSendSuccess(ep.client().awaitSendCompletion(), 1, SEND, ep.client());
        assertReceiveSuccess(ep.server().awaitReceiveCompletion(), 1, CompletionOpcode.RECV, 40, null, ep.server());
        assertThat(bytes(target, 0, 40)).as("the bytes as they were when the send was posted").isEqualTo(payload);
    }

    /** {@link SendFlags#INLINE}: "no lkey is needed", so the payload may be in memory no region covers. */
    @Test
    public void inlineSendNeedsNoLkeyAndNoRegisteredMemory() {
        final Endpoints ep = connect();
        assumeCapability(ep.client(), DeviceCapability.INLINE_DATA);
        assumeTrue(ep.client().device.limits().maxInlineData() >= 40, "the device inlines at least 40 bytes");
        final OffHeapMemory unregistered = own(OffHeapMemory.allocate(PAGE));
        final byte[] payload = pattern(40, 32);
        unregistered.buffer().putBytes(8, payload);
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, Access.LOCAL_WRITE));

        ep.server().receive(1, target, 0, 64);
        ep.client().send(s -> s.add(1, SEND_WITH_IMM, SendFlags.SIGNALED | SendFlags.INLINE)
            .sge(unregistered.address() + 8, 40, 0).immediate(40));

        assertSendSuccess(ep.client().awaitSendCompletion(), 1, SEND_WITH_IMM, ep.client());
        assertReceiveSuccess(ep.server().awaitReceiveCompletion(), 1, CompletionOpcode.RECV, 40, 40, ep.server());
        assertThat(bytes(target, 0, 40)).isEqualTo(payload);
    }

    // ------------------------------------------------------------------------------------------------------ errors

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ReceiveConsumer.class)
    public void requestThatFindsNoPostedReceiveFailsReceiverNotReady(final ReceiveConsumer consumer) {
        final Endpoints ep = connect(options -> options.rnrRetries(0));
        assumeOpcode(ep.client(), consumer.opcode);
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = ep.server().region(PAGE, WRITABLE);

        ep.client().send(s -> {
            s.add(1, consumer.opcode, SendFlags.SIGNALED).sge(source.address(), 16, source.lkey());
            if (WorkRequestOpcode.isOneSided(consumer.opcode)) {
                s.remote(target.address(), target.rkey());
            }
            if (WorkRequestOpcode.hasImmediate(consumer.opcode)) {
                s.immediate(42);
            }
        });

        assertFailure(ep.client().awaitSendCompletion(), 1, RNR_RETRY_EXC_ERR, ep.client());
        ep.client().awaitState(QueuePairState.ERROR);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(RemoteFault.class)
    public void remoteAccessViolationFailsWithRemoteAccessErrorAndBreaksBothQueuePairs(final RemoteFault fault) {
        final Endpoints ep = connect();
        assumeOpcode(ep.client(), fault.opcode);
        final MemoryRegion local = sentinelFilled(ep.client().region(PAGE, Access.LOCAL_WRITE));
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, fault.targetAccess));
        final MemoryRegion inbox = ep.server().region(PAGE, Access.LOCAL_WRITE);
        final long remoteAddress = target.address() + (fault.fromEnd ? target.length() : 0) + fault.offset;
        final int rkey = fault.wrongKey ? ~target.rkey() : target.rkey();

        ep.server().receive(r -> r.add(901).sge(inbox.address(), 64, inbox.lkey())
            .add(902).sge(inbox.address() + 64, 64, inbox.lkey()));
        ep.client().send(s -> {
            s.add(1, fault.opcode, SendFlags.SIGNALED).sge(local.address(), fault.length, local.lkey())
                .remote(remoteAddress, rkey);
            if (WorkRequestOpcode.hasImmediate(fault.opcode)) {
                s.immediate(99);
            }
        });

        assertFailure(ep.client().awaitSendCompletion(), 1, REM_ACCESS_ERR, ep.client());
        ep.client().awaitState(QueuePairState.ERROR);
        assertThat(ep.client().qp().errorReason()).as("the requester's error reason").isNotBlank();
        ep.server().awaitState(QueuePairState.ERROR);
        final ConnectionEvent event = ep.server().awaitFirstEvent();
        assertThat(event.type()).as("the responder's event: %s", event)
            .isIn(eventsOfAResponderAtFault());
        assertThat(event.queuePair()).as("the event names the responder's queue pair").isSameAs(ep.server().qp());
        assertThat(event.reason()).isNotBlank();
        final List<CompletionRecord> receives = ep.server().awaitReceiveCompletions(2);
        if (WorkRequestOpcode.hasImmediate(fault.opcode)) {
            // the receive the failed WRITE WITH IMMEDIATE was aimed at: flushed, or (Soft-RoCE) completed with the
            // access error itself; the one after it is flushed either way
            assertFailure(receives.get(0), 901, Set.of(WR_FLUSH_ERR, REM_ACCESS_ERR), ep.server());
            assertFlushed(receives.subList(1, 2), ep.server(), 902);
        } else {
            assertFlushed(receives, ep.server(), 901, 902);
        }
        assertUntouched(target, 0, PAGE);
        assertUntouched(local, 0, PAGE);
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("localFaults")
    public void localBufferOutsideItsRegionFailsWithLocalProtectionError(final LocalFault fault, final String opcode) {
        final int op = opcode.equals("SEND") ? SEND : RDMA_WRITE;
        final Endpoints ep = connect();
        final MemoryRegion local = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion deregistered = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final long deregisteredAddress = deregistered.address();
        final int deregisteredLkey = deregistered.lkey();
        deregistered.close();
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, WRITABLE));
        ep.server().receive(1, target, 0, 64);

        ep.client().send(s -> {
            s.add(1, op, SendFlags.SIGNALED);
            switch (fault) {
                case WRONG_LKEY -> s.sge(local.address(), 8, ~local.lkey());
                case RANGE_PAST_THE_END -> s.sge(local.address() + PAGE - 4, 8, local.lkey());
                case RANGE_BEFORE_THE_START -> s.sge(local.address() - 1, 8, local.lkey());
                case DEREGISTERED_REGION -> s.sge(deregisteredAddress, 8, deregisteredLkey);
            }
            if (op == RDMA_WRITE) {
                s.remote(target.address() + 128, target.rkey());
            }
        });

        assertFailure(ep.client().awaitSendCompletion(), 1, LOCAL_FAULT_STATUSES, ep.client());
        ep.client().awaitState(QueuePairState.ERROR);
        assertUntouched(target, 64, PAGE - 64);
    }

    static Stream<Arguments> localFaults() {
        return Arrays.stream(LocalFault.values())
            .flatMap(fault -> Stream.of(Arguments.of(fault, "SEND"), Arguments.of(fault, "RDMA_WRITE")));
    }

    @Test
    public void rdmaReadIntoARegionWithoutLocalWriteFailsLocally() {
        final Endpoints ep = connect();
        assumeCapability(ep.client(), DeviceCapability.RDMA_READ);
        final MemoryRegion readOnly = ep.client().region(PAGE, LOCAL_READ_ONLY);
        final MemoryRegion remote = ep.server().region(PAGE, Access.LOCAL_WRITE | Access.REMOTE_READ);

        ep.client().send(s -> s.add(1, RDMA_READ, SendFlags.SIGNALED).sge(readOnly.address(), 64, readOnly.lkey())
            .remote(remote.address(), remote.rkey()));

        final CompletionRecord wc = ep.client().awaitSendCompletion();
        assertThat(wc.wrId()).isEqualTo(1);
        assertThat(wc.status()).as("status of %s", wc).isIn(READ_INTO_READ_ONLY_STATUSES);
        ep.client().awaitState(QueuePairState.ERROR);
    }

    @Test
    public void sendLargerThanThePostedReceiveFailsOnBothSides() {
        final Endpoints ep = connect();
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = sentinelFilled(ep.server().region(PAGE, Access.LOCAL_WRITE));

        ep.server().receive(31, target, 0, 16);
        ep.client().send(s -> s.add(1, SEND, SendFlags.SIGNALED).sge(source.address(), 64, source.lkey()));

        final CompletionRecord sent = ep.client().awaitSendCompletion();
        assertThat(sent.wrId()).isEqualTo(1);
        assertThat(sent.status()).as("the sender's status of %s: one of %s", sent,
            OVERSIZED_SEND_SENDER_STATUSES.stream().map(CompletionStatus::name).toList())
            .isIn(OVERSIZED_SEND_SENDER_STATUSES);
        assertFailure(ep.server().awaitReceiveCompletion(), 31, SHORT_RECEIVE_STATUSES, ep.server());
        ep.client().awaitState(QueuePairState.ERROR);
        ep.server().awaitState(QueuePairState.ERROR);
        assertUntouched(target, 16, PAGE - 16);
    }

    // --------------------------------------------------------------------------------- error state, flush, queue full

    @Test
    public void afterAnErrorOutstandingAndLaterWorkCompletesFlushedInOrder() {
        final Endpoints ep = connect();
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion inbox = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = ep.server().region(PAGE, WRITABLE);
        ep.client().receive(r -> {
            for (int k = 0; k < 4; k++) {
                r.add(201 + k).sge(inbox.address() + k * 64L, 64, inbox.lkey());
            }
        });

        ep.client().send(s -> s
            .add(1, RDMA_WRITE, SendFlags.SIGNALED).sge(source.address(), 8, source.lkey())
            .remote(target.address(), ~target.rkey())
            .add(2, RDMA_WRITE, SendFlags.SIGNALED).sge(source.address(), 8, source.lkey())
            .remote(target.address(), target.rkey())
            .add(3, SEND, SendFlags.SIGNALED).sge(source.address(), 8, source.lkey()));

        final List<CompletionRecord> first = ep.client().awaitSendCompletions(3);
        assertFailure(first.get(0), 1, REM_ACCESS_ERR, ep.client());
        assertFlushed(first.subList(1, 3), ep.client(), 2, 3);
        ep.client().awaitState(QueuePairState.ERROR);
        assertThat(ep.client().qp().errorReason()).isNotBlank();
        assertFlushed(ep.client().awaitReceiveCompletions(4), ep.client(), 201, 202, 203, 204);

        final int status = ep.client().trySend(s -> s
            .add(11, SEND, SendFlags.SIGNALED).sge(source.address(), 8, source.lkey())
            .add(12, RDMA_WRITE, SendFlags.SIGNALED).sge(source.address(), 8, source.lkey())
            .remote(target.address(), target.rkey())
            .add(13, SEND_WITH_IMM, SendFlags.NONE).immediate(1));
        assertThat(status).as("posting to a queue pair in the error state: %s", PostStatus.name(status))
            .isEqualTo(PostStatus.OK);
        assertFlushed(ep.client().awaitSendCompletions(3), ep.client(), 11, 12, 13);
        ep.client().receive(205, inbox, 0, 64);
        assertFlushed(ep.client().awaitReceiveCompletions(1), ep.client(), 205);
    }

    @Test
    public void postingMoreSendsThanTheQueueHoldsReturnsQueueFullWithTheFailedIndex() {
        final Endpoints ep = connect(options -> options.sendDepth(8));
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = ep.server().region(PAGE, WRITABLE);
        final Endpoint client = ep.client();

        int capacity = 0;
        int status;
        do {
            final long wrId = capacity;
            status = client.trySend(s -> s.add(wrId, RDMA_WRITE, SendFlags.SIGNALED).sge(source.address(), 8,
                source.lkey()).remote(target.address(), target.rkey()));
            if (status == PostStatus.OK) {
                capacity++;
            }
        } while (status == PostStatus.OK && capacity < 512);
        assertThat(status).as("post %d on a send queue of depth 8 with nothing polled: %s", capacity + 1,
            PostStatus.name(status)).isEqualTo(PostStatus.QUEUE_FULL);
        assertThat(capacity).as("sends the queue took").isGreaterThanOrEqualTo(8);
        assertThat(client.sends().failedIndex()).as("failedIndex of a one-request batch that did not fit").isZero();
        final List<CompletionRecord> taken = client.awaitSendCompletions(capacity);
        assertThat(taken).extracting(CompletionRecord::wrId)
            .containsExactlyElementsOf(Stream.iterate(0L, i -> i + 1).limit(capacity).toList());
        assertThat(taken).allMatch(CompletionRecord::isSuccess);
        fenceSend(client, 9_999);

        final int batch = Math.min(capacity + 2, Endpoint.BATCH);
        final int fits = Math.min(capacity, batch);
        assumeTrue(batch > fits, "the send queue holds " + capacity + ", more than a batch of " + Endpoint.BATCH);
        status = client.trySend(s -> {
            for (int i = 0; i < batch; i++) {
                s.add(1000 + i, RDMA_WRITE, SendFlags.SIGNALED).sge(source.address(), 8, source.lkey())
                    .remote(target.address(), target.rkey());
            }
        });
        assertThat(status).as("a batch of %d on an empty send queue that holds %d", batch, capacity)
            .isEqualTo(PostStatus.QUEUE_FULL);
        assertThat(client.sends().failedIndex()).as("index of the first request that did not fit").isEqualTo(fits);
        final List<CompletionRecord> partial = client.awaitSendCompletions(fits);
        assertThat(partial).extracting(CompletionRecord::wrId)
            .containsExactlyElementsOf(Stream.iterate(1000L, i -> i + 1).limit(fits).toList());
        fenceSend(client, 9_998);
    }

    @Test
    public void postingMoreReceivesThanTheQueueHoldsReturnsQueueFullWithTheFailedIndex() {
        final Endpoints ep = connect(options -> options.receiveDepth(8));
        final MemoryRegion inbox = ep.server().region(PAGE, Access.LOCAL_WRITE);
        final Endpoint server = ep.server();

        int capacity = 0;
        int status;
        do {
            final long wrId = capacity;
            status = server.tryReceive(r -> r.add(wrId).sge(inbox.address(), 8, inbox.lkey()));
            if (status == PostStatus.OK) {
                capacity++;
            }
        } while (status == PostStatus.OK && capacity < 512);
        assertThat(status).as("receive %d on a receive queue of depth 8: %s", capacity + 1, PostStatus.name(status))
            .isEqualTo(PostStatus.QUEUE_FULL);
        assertThat(capacity).as("receives the queue took").isGreaterThanOrEqualTo(8);
        assertThat(server.receives().failedIndex()).as("failedIndex of a one-receive batch that did not fit").isZero();

        // two SENDs take two receives, which makes room for exactly two of a batch of three
        ep.client().send(s -> s.add(1, SEND, SendFlags.SIGNALED).add(2, SEND, SendFlags.SIGNALED));
        ep.client().awaitSendCompletions(2);
        assertThat(server.awaitReceiveCompletions(2)).extracting(CompletionRecord::wrId).containsExactly(0L, 1L);
        status = server.tryReceive(r -> r.add(100).sge(inbox.address(), 8, inbox.lkey())
            .add(101).sge(inbox.address(), 8, inbox.lkey())
            .add(102).sge(inbox.address(), 8, inbox.lkey()));
        assertThat(status).as("three receives with room for two").isEqualTo(PostStatus.QUEUE_FULL);
        assertThat(server.receives().failedIndex()).as("index of the first receive that did not fit").isEqualTo(2);

        final List<Long> expected = new ArrayList<>();
        for (long k = 2; k < capacity; k++) {
            expected.add(k);
        }
        expected.add(100L);
        expected.add(101L);
        final List<CompletionRecord> rest = new ArrayList<>();
        for (int sent = 0; sent < expected.size(); ) {
            final int chunk = Math.min(32, expected.size() - sent);
            ep.client().send(s -> {
                for (int i = 0; i < chunk; i++) {
                    s.add(i, SEND, SendFlags.SIGNALED);
                }
            });
            assertThat(ep.client().awaitSendCompletions(chunk)).allMatch(CompletionRecord::isSuccess);
            rest.addAll(server.awaitReceiveCompletions(chunk));
            sent += chunk;
        }
        assertThat(rest).extracting(CompletionRecord::wrId).as("the receives posted, in order")
            .containsExactlyElementsOf(expected);
    }

    // -------------------------------------------------------------------------------------- protection domains

    /**
     * Two connections to one device, each queue pair in a protection domain of its own, as rdma-reactive gives every
     * connection: a peer that uses the keys of its neighbour's region (learnt, guessed) gets a remote access error on
     * its own queue pair, and the region keeps its bytes; the neighbour writes it as before. A local entry naming a
     * region of another domain is refused too.
     */
    @Test
    public void theKeysOfAnotherProtectionDomainsRegionGetARemoteAccessErrorAndTheNeighbourIsUntouched() {
        final Endpoint serverA = endpoint("server-a");
        final Endpoint serverB = new Endpoint("server-b", serverA.device);
        final Endpoint clientA = endpoint("client-a");
        final Endpoint clientB = endpoint("client-b");
        final ProtectionDomain domainA = serverA.device.allocateProtectionDomain();
        final ProtectionDomain domainB = serverA.device.allocateProtectionDomain();
        final String address = uniqueAddress();
        final Listener listener = own(serverA.device.listen(address));
        final Future<QueuePair> connectingA = connectAsync(clientA, address, clientA.options().build(), text("a"));
        serverA.attach(awaitConnectRequest(listener, connectingA).accept(serverA.options()
            .protectionDomain(domainA).build(), text("a")));
        clientA.attach(join(connectingA));
        final Future<QueuePair> connectingB = connectAsync(clientB, address, clientB.options().build(), text("b"));
        serverB.attach(awaitConnectRequest(listener, connectingB).accept(serverB.options()
            .protectionDomain(domainB).build(), text("b")));
        clientB.attach(join(connectingB));
        try {
            final MemoryRegion target = domainA.allocateRegion(PAGE, WRITABLE);
            for (int i = 0; i < 8; i++) {
                target.buffer().putLong(i * 8, 1000 + i);
            }
            final MemoryRegion intruder = clientB.region(PAGE, Access.LOCAL_WRITE);
            intruder.buffer().setMemory(0, 64, (byte) 0x5A);
            clientB.send(s -> s.add(1, RDMA_WRITE, SendFlags.SIGNALED).sge(intruder.address(), 64, intruder.lkey())
                .remote(target.address(), target.rkey()));
            assertFailure(clientB.awaitSendCompletion(), 1, REM_ACCESS_ERR, clientB);
            for (int i = 0; i < 8; i++) {
                assertThat(target.buffer().getLong(i * 8)).as("word %d of the neighbour's region", i)
                    .isEqualTo(1000 + i);
            }

            final MemoryRegion source = clientA.region(PAGE, Access.LOCAL_WRITE);
            source.buffer().putLong(0, 4242);
            clientA.send(s -> s.add(2, RDMA_WRITE, SendFlags.SIGNALED).sge(source.address(), 8, source.lkey())
                .remote(target.address() + 8, target.rkey()));
            assertSendSuccess(clientA.awaitSendCompletion(), 2, RDMA_WRITE, clientA);
            assertThat(target.buffer().getLong(8)).as("the neighbour's own write").isEqualTo(4242);

            // the server's queue pair A names a region of domain B in a local entry: not its domain (queue pair B
            // went to the error state with its peer's failed write, as on verbs)
            final MemoryRegion other = domainB.allocateRegion(PAGE, Access.LOCAL_WRITE);
            serverA.send(s -> s.add(3, SEND, SendFlags.SIGNALED).sge(other.address(), 8, other.lkey()));
            // (adapters report a protection error; Soft-RoCE's requester reports a local queue-pair operation error)
            assertFailure(serverA.awaitSendCompletion(), 3, Set.of(LOC_PROT_ERR, LOC_QP_OP_ERR), serverA);
        } finally {
            for (final Endpoint endpoint : List.of(clientA, clientB, serverA, serverB)) {
                endpoint.qp().close();
            }
            domainA.close();
            domainB.close();
        }
    }

    // -------------------------------------------------------------------------------------- connection management

    /**
     * The two ends of a connection see the same endpoints, swapped, already in the accept's answer function (an
     * authenticated answer binds them); two connections between the same devices never share them.
     */
    @Test
    public void bothSidesSeeTheSameEndpointsAndEveryConnectionHasItsOwn() {
        final Endpoint client = endpoint("client");
        final Endpoint server = endpoint("server");
        final String address = uniqueAddress();
        final Listener listener = own(server.device.listen(address));
        final java.util.List<byte[]> seen = new java.util.ArrayList<>();
        final java.util.List<QueuePair> open = new java.util.ArrayList<>();
        try {
            for (int connection = 0; connection < 2; connection++) {
                final Future<QueuePair> connecting = connectAsync(client, address, client.options().build(),
                    text("hello"));
                final ConnectRequest request = awaitConnectRequest(listener, connecting);
                final byte[][] inAnswer = new byte[2][];
                final QueuePair accepted = request.accept(server.options().build(), queuePair -> {
                    inAnswer[0] = queuePair.localEndpoint();
                    inAnswer[1] = queuePair.peerEndpoint();
                    return text("answer");
                });
                open.add(accepted);
                final QueuePair connected = join(connecting);
                open.add(connected);
                assertThat(connected.peerPrivateData()).isEqualTo(text("answer"));
                assertThat(inAnswer[0]).as("the listener's endpoint, in its answer function").isNotEmpty()
                    .isEqualTo(accepted.localEndpoint()).isEqualTo(connected.peerEndpoint());
                assertThat(inAnswer[1]).as("the connector's endpoint, as the listener sees it")
                    .isEqualTo(accepted.peerEndpoint()).isEqualTo(connected.localEndpoint());
                assertThat(connected.localEndpoint()).isNotEqualTo(connected.peerEndpoint());
                for (final byte[] earlier : seen) {
                    assertThat(connected.localEndpoint()).as("a second connection's endpoint").isNotEqualTo(earlier);
                    assertThat(accepted.localEndpoint()).as("a second connection's endpoint").isNotEqualTo(earlier);
                }
                seen.add(connected.localEndpoint());
                seen.add(accepted.localEndpoint());
            }
        } finally {
            open.forEach(QueuePair::close);
        }
    }

    @ParameterizedTest(name = "{0} bytes (-1: the device limit)")
    @ValueSource(ints = {0, 1, 24, -1})
    public void privateDataCrossesExactlyInBothDirections(final int length) {
        final Endpoint client = endpoint("client");
        final Endpoint server = endpoint("server");
        final int limit = Math.min(client.device.limits().maxPrivateDataLength(),
            server.device.limits().maxPrivateDataLength());
        final byte[] toListener = pattern(length < 0 ? limit : length, 41);
        final byte[] toConnector = pattern(length < 0 ? limit : length, 42);
        final String address = uniqueAddress();
        final Listener listener = own(server.device.listen(address));

        final Future<QueuePair> connecting = connectAsync(client, address, client.options().build(), toListener);
        final ConnectRequest request = awaitConnectRequest(listener, connecting);
        assertThat(request.privateData()).as("the connector's private data, as the listener sees it")
            .isEqualTo(toListener);
        assertThat(request.peerDescription()).isNotBlank();
        server.attach(request.accept(server.options().build(), toConnector));
        client.attach(join(connecting));

        assertThat(client.qp().peerPrivateData()).as("the listener's private data, as the connector sees it")
            .isEqualTo(toConnector);
        assertThat(server.qp().peerPrivateData()).as("the connector's private data, on the accepted queue pair")
            .isEqualTo(toListener);
        assertThat(client.qp().state()).isEqualTo(QueuePairState.READY_TO_SEND);
        assertThat(server.qp().state()).isEqualTo(QueuePairState.READY_TO_SEND);
        assertThat(client.qp().peerDescription()).isNotBlank();
        assertThat(server.qp().peerDescription()).isNotBlank();
        assertThat(client.qp().errorReason()).isNull();

        // and the connection carries data, listener to connector too
        final MemoryRegion target = client.region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion source = server.region(PAGE, Access.LOCAL_WRITE);
        source.buffer().putBytes(0, toConnector);
        client.receive(1, target, 0, 256);
        server.send(s -> s.add(2, SEND, SendFlags.SIGNALED).sge(source.address(), toConnector.length, source.lkey()));
        assertSendSuccess(server.awaitSendCompletion(), 2, SEND, server);
        assertReceiveSuccess(client.awaitReceiveCompletion(), 1, CompletionOpcode.RECV, toConnector.length, null,
            client);
        assertThat(bytes(target, 0, toConnector.length)).isEqualTo(toConnector);
    }

    @Test
    public void rejectedConnectFailsWithTheListenersPrivateDataAndTheListenerCarriesOn() {
        final Endpoint client = endpoint("client");
        final Endpoint server = endpoint("server");
        final String address = uniqueAddress();
        final Listener listener = own(server.device.listen(address));
        final byte[] why = "busy: try later".getBytes(StandardCharsets.US_ASCII);

        final Future<QueuePair> refused = connectAsync(client, address, client.options().build(), text("first"));
        final ConnectRequest request = awaitConnectRequest(listener, refused);
        assertThat(request.privateData()).isEqualTo(text("first"));
        request.reject(why);
        final Throwable failure = failureOf(refused);
        assertThat(failure).as("what connect threw on a reject").isInstanceOf(ConnectionRejectedException.class);
        assertThat(((ConnectionRejectedException) failure).privateData()).as("the reject's private data")
            .isEqualTo(why);
        assertThat(failure.getMessage()).isNotBlank();

        final Future<QueuePair> accepted = connectAsync(client, address, client.options().build(), text("second"));
        final ConnectRequest again = awaitConnectRequest(listener, accepted);
        assertThat(again.privateData()).isEqualTo(text("second"));
        server.attach(again.accept(server.options().build(), text("welcome")));
        client.attach(join(accepted));
        assertThat(client.qp().peerPrivateData()).isEqualTo(text("welcome"));
        exchangeOneSend(client, server);
    }

    @Test
    public void aRejectCarriesAsMuchPrivateDataAsTheDeviceAllowsAndNoMore() {
        final Endpoint client = endpoint("client");
        final Endpoint server = endpoint("server");
        final String address = uniqueAddress();
        final Listener listener = own(server.device.listen(address));
        final int limit = server.device.limits().maxRejectPrivateDataLength();

        final Future<QueuePair> refused = connectAsync(client, address, client.options().build(), text("first"));
        final ConnectRequest request = awaitConnectRequest(listener, refused);
        final byte[] why = pattern(limit, 43);
        request.reject(why);
        final Throwable failure = failureOf(refused);
        assertThat(failure).isInstanceOf(ConnectionRejectedException.class);
        assertThat(((ConnectionRejectedException) failure).privateData()).as("the reject's private data, whole")
            .isEqualTo(why);

        final Future<QueuePair> again = connectAsync(client, address, client.options().build(), text("second"));
        final ConnectRequest tooMuch = awaitConnectRequest(listener, again);
        assertThatThrownBy(() -> tooMuch.reject(pattern(limit + 1, 44))).as("a reject over the limit")
            .isInstanceOf(IllegalArgumentException.class);
        tooMuch.reject(new byte[0]);
        assertThat(failureOf(again)).isInstanceOf(ConnectionRejectedException.class);
    }

    @Test
    public void connectingWhereNobodyListensFailsAtOnceNamingTheAddress() {
        final Endpoint client = endpoint("client");
        final String address = uniqueAddress();
        final QueuePairOptions options = client.options().build();

        assertTimeoutPreemptively(Await.BOUND, () -> {
            assertThatThrownBy(() -> client.device.connect(address, options, text("anyone?"), Duration.ofMinutes(5)))
                .isInstanceOf(RdmaException.class)
                .hasMessageContaining(address);
        }, "connect to an address nobody listens on must fail at once, not wait for its 5-minute timeout");
    }

    @Test
    public void closingTheListenerKeepsItsConnectionsAndReleasesTheAddress() {
        final Endpoints ep = connect();
        ep.listener().close();
        ep.listener().close();

        assertTimeoutPreemptively(Await.BOUND, () -> {
            assertThatThrownBy(() -> ep.client().device.connect(ep.address(), ep.client().options().build(),
                text("late"), Duration.ofMinutes(5))).isInstanceOf(RdmaException.class);
        }, "connect to a closed listener must fail at once");
        exchangeOneSend(ep.client(), ep.server());

        final Listener again = own(ep.server().device.listen(ep.address()));
        final Endpoint other = endpoint("other");
        final Future<QueuePair> connecting = connectAsync(other, ep.address(), other.options().build(), text("new"));
        awaitConnectRequest(again, connecting).accept(ep.server().options().build(), text("ok")).close();
        join(connecting).close();
        again.close();
    }

    @Test
    public void disconnectMovesBothSidesToErrorFlushesTheirReceivesAndTellsThePeer() {
        final Endpoints ep = connect();
        final MemoryRegion serverInbox = ep.server().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion clientInbox = ep.client().region(PAGE, Access.LOCAL_WRITE);
        ep.server().receive(r -> r.add(301).sge(serverInbox.address(), 64, serverInbox.lkey())
            .add(302).sge(serverInbox.address() + 64, 64, serverInbox.lkey())
            .add(303));
        ep.client().receive(r -> r.add(401).sge(clientInbox.address(), 64, clientInbox.lkey()).add(402));

        ep.client().qp().disconnect();
        ep.client().qp().disconnect();

        final ConnectionEvent event = ep.server().awaitFirstEvent();
        assertThat(event.type()).as("the peer's event: %s", event).isEqualTo(ConnectionEvent.Type.DISCONNECTED);
        assertThat(event.queuePair()).as("the event names the peer's own queue pair").isSameAs(ep.server().qp());
        ep.server().awaitState(QueuePairState.ERROR);
        ep.client().awaitState(QueuePairState.ERROR);
        assertFlushed(ep.server().awaitReceiveCompletions(3), ep.server(), 301, 302, 303);
        assertFlushed(ep.client().awaitReceiveCompletions(2), ep.client(), 401, 402);

        ep.server().send(s -> s.add(9, SEND, SendFlags.SIGNALED));
        assertFlushed(ep.server().awaitSendCompletions(1), ep.server(), 9);
    }

    @Test
    public void closingAQueuePairDisconnectsThePeer() {
        final Endpoints ep = connect();
        final MemoryRegion inbox = ep.server().region(PAGE, Access.LOCAL_WRITE);
        ep.server().receive(1, inbox, 0, 64);

        ep.client().qp().close();
        ep.client().qp().close();
        assertThat(ep.client().qp().state()).isEqualTo(QueuePairState.CLOSED);

        final ConnectionEvent event = ep.server().awaitFirstEvent();
        assertThat(event.type()).as("the peer's event: %s", event).isEqualTo(ConnectionEvent.Type.DISCONNECTED);
        ep.server().awaitState(QueuePairState.ERROR);
        assertFlushed(ep.server().awaitReceiveCompletions(1), ep.server(), 1);
    }

    // ------------------------------------------------------------------------------------ a peer in another process

    @Test
    public void peerKilledInAnotherProcessIsReportedLostAndItsConnectionFlushed() {
        final Endpoint server = endpoint("server");
        final String address = uniqueAddress();
        final Listener listener = own(server.device.listen(address));
        final MemoryRegion region = server.region(4L * PAGE, ALL_ACCESS);
        final ChildJvm peer = startPeer(address, "kill");

        handshakeWithPeer(server, listener, region, peer);
        peer.kill();

        final ConnectionEvent event = server.awaitFirstEvent();
        assertThat(event.type()).as("the event after the peer's process was killed: %s", event)
            .isIn(eventsOfAKilledPeer());
        assertThat(event.queuePair()).isSameAs(server.qp());
        assertThat(event.reason()).isNotBlank();
        server.awaitState(QueuePairState.ERROR);
        assertThat(server.qp().errorReason()).isNotBlank();
        assertFlushed(server.awaitReceiveCompletions(2), server, 2, 3);
        server.send(s -> s.add(500, SEND, SendFlags.SIGNALED));
        assertFlushed(server.awaitSendCompletions(1), server, 500);
    }

    @Test
    public void peerInAnotherProcessExchangesDataAndDisconnectsCleanly() {
        final Endpoint server = endpoint("server");
        final String address = uniqueAddress();
        final Listener listener = own(server.device.listen(address));
        final MemoryRegion region = server.region(4L * PAGE, ALL_ACCESS);
        final ChildJvm peer = startPeer(address, "exchange");
        final long[] child = handshakeWithPeer(server, listener, region, peer);
        assertThat(child[2]).as("the peer's region length").isEqualTo(4L * PAGE);

        final byte[] ping = pattern(200, 0x44);
        region.buffer().putBytes(PAGE + 64, ping);
        server.send(s -> s.add(101, SEND, SendFlags.SIGNALED).sge(region.address() + PAGE + 64, 200, region.lkey()));
        assertSendSuccess(server.awaitSendCompletion(), 101, SEND, server);
        assertReceiveSuccess(server.awaitReceiveCompletion(), 2, CompletionOpcode.RECV, 200,
            ConformancePeer.REPLY_IMMEDIATE, server);
        final byte[] reversed = new byte[ping.length];
        for (int i = 0; i < ping.length; i++) {
            reversed[i] = ping[ping.length - 1 - i];
        }
        assertThat(bytes(region, 2 * PAGE + 512, 200)).as("the peer's reply").isEqualTo(reversed);

        peer.awaitLine("BYE");
        assertThat(peer.awaitExit()).as("the peer's exit code%s", peer.describe()).isZero();
        final ConnectionEvent event = server.awaitFirstEvent();
        assertThat(event.type()).as("the event after the peer disconnected and exited: %s", event)
            .isEqualTo(ConnectionEvent.Type.DISCONNECTED);
        server.awaitState(QueuePairState.ERROR);
        assertFlushed(server.awaitReceiveCompletions(1), server, 3);
    }

    // ---------------------------------------------------------------------------------------------------- teardown

    @Test
    public void closingARegionWithPostedReceivesDefersDeregistrationUntilTheirFlushedCompletionsArePolled() {
        final Endpoints ep = connect();
        final Endpoint server = ep.server();
        final long before = server.device.registeredBytes();
        final MemoryRegion inbox = server.region(PAGE, Access.LOCAL_WRITE);
        server.receive(r -> {
            for (int k = 0; k < 3; k++) {
                r.add(501 + k).sge(inbox.address() + k * 64L, 64, inbox.lkey());
            }
        });

        inbox.close();
        assertThat(inbox.isRegistered()).as("a region with receives posted on it stays registered after close()")
            .isTrue();
        inbox.close();
        assertThat(inbox.isRegistered()).isTrue();

        ep.client().qp().disconnect();
        server.awaitState(QueuePairState.ERROR);
        assertThat(inbox.isRegistered()).as("a region whose flushed receives are not polled yet").isTrue();
        assertFlushed(server.awaitReceiveCompletions(3), server, 501, 502, 503);
        Await.until(() -> "the region to be deregistered once its flushed receives were polled",
            () -> !inbox.isRegistered());
        assertThat(server.device.registeredBytes()).isEqualTo(before);
    }

    @Test
    public void closingTheQueuePairReleasesARegionWaitingForItsReceives() {
        final Endpoints ep = connect();
        final Endpoint server = ep.server();
        final long before = server.device.registeredBytes();
        final MemoryRegion inbox = server.region(PAGE, Access.LOCAL_WRITE);
        server.receive(r -> r.add(1).sge(inbox.address(), 64, inbox.lkey()).add(2).sge(inbox.address() + 64, 64,
            inbox.lkey()));

        inbox.close();
        assertThat(inbox.isRegistered()).as("a region with receives posted on it stays registered after close()")
            .isTrue();
        server.qp().close();

        Await.until(() -> "the region to be deregistered once the queue pair holding its receives was closed",
            () -> !inbox.isRegistered());
        assertThat(server.device.registeredBytes()).isEqualTo(before);
    }

    @Test
    public void closingTheDevicesReleasesEverythingAndLeavesNoFilesAndNoThreads() throws IOException {
        final Endpoints ep = connect();
        final MemoryRegion source = ep.client().region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = ep.server().region(2L * PAGE, WRITABLE);
        final MemoryRegion closedEarly = ep.server().region(PAGE, Access.LOCAL_WRITE);
        closedEarly.close();
        ep.server().receive(r -> r.add(1).sge(target.address(), 64, target.lkey())
            .add(2).sge(target.address() + 64, 64, target.lkey()));
        ep.client().send(s -> s
            .add(1, RDMA_WRITE, SendFlags.SIGNALED).sge(source.address(), 64, source.lkey())
            .remote(target.address() + PAGE, target.rkey())
            .add(2, SEND, SendFlags.SIGNALED).sge(source.address(), 32, source.lkey()));
        ep.client().awaitSendCompletions(2);
        // one receive completed and not polled, one still posted: the devices must clean up after both

        ep.client().device.close();
        ep.server().device.close();
        ep.client().device.close();
        ep.server().device.close();

        assertThat(source.isRegistered()).as("a region after its device closed").isFalse();
        assertThat(target.isRegistered()).as("a region with work on it after its device closed").isFalse();
        assertThat(ep.client().qp().state()).isEqualTo(QueuePairState.CLOSED);
        assertThat(ep.server().qp().state()).isEqualTo(QueuePairState.CLOSED);
        try (Stream<Path> left = Files.list(scratch)) {
            assertThat(left.map(path -> path.getFileName().toString()).toList())
                .as("files left in %s after every device closed", scratch).isEmpty();
        }
        Await.until(() -> "the provider's threads to end after every device closed; alive: " + newRdmaThreads(),
            () -> newRdmaThreads().isEmpty());
    }

    // ------------------------------------------------------------------------------------------------------ fixture

    /** @return a device opened with {@link #deviceOptions()}, closed after the test */
    protected final RdmaDevice openDevice() {
        return own(RdmaProviders.named(providerName()).open(deviceOptions()));
    }

    /** Registers something to close after the test (last registered, first closed). */
    protected final <T extends AutoCloseable> T own(final T resource) {
        resources.push(resource);
        return resource;
    }

    final Endpoint endpoint(final String role) {
        return new Endpoint(role, own(RdmaProviders.named(providerName()).open(deviceOptions(role))));
    }

    final String uniqueAddress() {
        return address("conf-" + names.incrementAndGet());
    }

    /** @return two endpoints connected with the suite's default queue pair options */
    final Endpoints connect() {
        return connect(UnaryOperator.identity());
    }

    /** @return two endpoints connected with queue pair options changed by {@code tweak} on both sides */
    final Endpoints connect(final UnaryOperator<QueuePairOptions.Builder> tweak) {
        final Endpoint client = endpoint("client");
        final Endpoint server = endpoint("server");
        final String address = uniqueAddress();
        final Listener listener = own(server.device.listen(address));
        final Future<QueuePair> connecting = connectAsync(client, address, tweak.apply(client.options()).build(),
            text("client-hello"));
        final ConnectRequest request = awaitConnectRequest(listener, connecting);
        final byte[] requestPrivateData = request.privateData();
        final String requestPeer = request.peerDescription();
        server.attach(request.accept(tweak.apply(server.options()).build(), text("server-hello")));
        client.attach(join(connecting));
        return new Endpoints(client, server, listener, address, requestPrivateData, requestPeer);
    }

    final Future<QueuePair> connectAsync(final Endpoint client, final String address, final QueuePairOptions options,
                                         final byte[] privateData) {
        return connector.submit(() -> client.device.connect(address, options, privateData, CONNECT_TIMEOUT));
    }

    /** Waits for the next connect request, failing early if the connect attempt already ended. */
    static ConnectRequest awaitConnectRequest(final Listener listener, final Future<?> connecting) {
        final ConnectRequest[] request = new ConnectRequest[1];
        Await.until(() -> "a connect request at " + listener.address(), () -> {
            request[0] = listener.accept(Duration.ofMillis(50));
            if (request[0] == null && connecting.isDone()) {
                throw new AssertionError("connect ended before the listener saw its request: " + failureOf(connecting));
            }
            return request[0] != null;
        });
        return request[0];
    }

    static <T> T join(final Future<T> future) {
        try {
            return future.get(Await.BOUND.toSeconds(), TimeUnit.SECONDS);
        } catch (final ExecutionException ex) {
            if (ex.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new AssertionError("connect failed", ex.getCause());
        } catch (final TimeoutException ex) {
            throw new AssertionError("connect did not return within " + Await.BOUND.toSeconds()
                + " s of the listener accepting", ex);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", ex);
        }
    }

    /** @return what the future failed with, waiting for it; fails if it succeeded */
    static Throwable failureOf(final Future<?> future) {
        try {
            final Object result = future.get(Await.BOUND.toSeconds(), TimeUnit.SECONDS);
            throw new AssertionError("expected a failure, got " + result);
        } catch (final ExecutionException ex) {
            return ex.getCause();
        } catch (final TimeoutException ex) {
            throw new AssertionError("did not end within " + Await.BOUND.toSeconds() + " s", ex);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", ex);
        }
    }

    /** One SEND each way is too much ceremony for the tests that only need to see a connection work. */
    static void exchangeOneSend(final Endpoint from, final Endpoint to) {
        final MemoryRegion source = from.region(PAGE, Access.LOCAL_WRITE);
        final MemoryRegion target = to.region(PAGE, Access.LOCAL_WRITE);
        final byte[] payload = pattern(48, 77);
        source.buffer().putBytes(0, payload);
        to.receive(4242, target, 0, 64);
        from.send(s -> s.add(4242, SEND, SendFlags.SIGNALED).sge(source.address(), 48, source.lkey()));
        assertSendSuccess(from.awaitSendCompletion(), 4242, SEND, from);
        assertReceiveSuccess(to.awaitReceiveCompletion(), 4242, CompletionOpcode.RECV, 48, null, to);
        assertThat(bytes(target, 0, 48)).isEqualTo(payload);
    }

    /**
     * A SEND after earlier requests, whose receive completion shows that everything posted before it on the client
     * has been executed, and that the bytes it wrote are visible on the server.
     */
    static void fence(final Endpoints ep) {
        ep.server().receiveNothing(-1);
        ep.client().send(s -> s.add(-1, SEND, SendFlags.SIGNALED));
        assertSendSuccess(ep.client().awaitSendCompletion(), -1, SEND, ep.client());
        assertReceiveSuccess(ep.server().awaitReceiveCompletion(), -1, CompletionOpcode.RECV, 0, null, ep.server());
    }

    /** A signalled zero-length RDMA WRITE whose completion must be the next one: nothing came before it. */
    static void fenceSend(final Endpoint client, final long wrId) {
        client.send(s -> s.add(wrId, RDMA_WRITE, SendFlags.SIGNALED));
        assertThat(client.awaitSendCompletion().wrId()).as("the next send completion is the fence's")
            .isEqualTo(wrId);
    }

    /** Starts {@link ConformancePeer}; its output is kept, for the failure messages. */
    private ChildJvm startPeer(final String address, final String mode) {
        return own(ChildJvmLauncher.of(ConformancePeer.class)
            .jvmOptions("-Xmx128m", "-XX:TieredStopAtLevel=1", "-Drdma.idle=" + System.getProperty("rdma.idle",
                "backoff"))
            .args(ConformancePeer.arguments(providerName(), deviceOptions("peer"), address, mode))
            .bound(Await.CHILD_BOUND).start());
    }

    /**
     * The test's half of {@link ConformancePeer}'s exchange, up to the peer's {@code READY}: accept the peer, post
     * receives 1 (absorbs the peer's WRITE_WITH_IMM), 2 (the reply) and 3 (left outstanding), write GO, and check
     * the bytes the peer wrote.
     *
     * @return {address, rkey, length} of the peer's region
     */
    private static long[] handshakeWithPeer(final Endpoint server, final Listener listener, final MemoryRegion region,
                                            final ChildJvm peer) {
        sentinelFilled(region);
        final ConnectRequest[] request = new ConnectRequest[1];
        Await.until(Await.CHILD_BOUND, () -> "the peer JVM's connect request" + peer.describe(), () -> {
            request[0] = listener.accept(Duration.ofMillis(100));
            if (request[0] == null && !peer.isAlive()) {
                throw new AssertionError("the peer JVM exited before connecting" + peer.describe());
            }
            return request[0] != null;
        });
        final long[] child = ConformancePeer.decodeRegion(request[0].privateData());
        server.attach(request[0].accept(server.options().build(), ConformancePeer.encodeRegion(region)));
        server.receive(r -> r.add(1).sge(region.address() + 2L * PAGE, 512, region.lkey())
            .add(2).sge(region.address() + 2L * PAGE + 512, 512, region.lkey())
            .add(3).sge(region.address() + 2L * PAGE + 1024, 512, region.lkey()));
        peer.awaitLine("CONNECTED");

        region.buffer().putInt(PAGE, ConformancePeer.GO);
        server.send(s -> s.add(100, RDMA_WRITE, SendFlags.SIGNALED).sge(region.address() + PAGE, 4, region.lkey())
            .remote(child[0], (int) child[1]));
        assertSendSuccess(server.awaitSendCompletion(), 100, RDMA_WRITE, server);

        final CompletionRecord ready;
        try {
            ready = server.awaitReceiveCompletion();
        } catch (final AssertionError ex) {
            throw new AssertionError(ex.getMessage() + peer.describe(), ex);
        }
        assertReceiveSuccess(ready, 1, CompletionOpcode.RECV_RDMA_WITH_IMM, ConformancePeer.TAIL_LENGTH,
            ConformancePeer.READY_IMMEDIATE, server);
        assertThat(bytes(region, 0, ConformancePeer.PATTERN_LENGTH)).as("the bytes the peer process wrote")
            .isEqualTo(ConformancePeer.pattern(ConformancePeer.PATTERN_LENGTH, ConformancePeer.PATTERN_SEED));
        assertThat(bytes(region, ConformancePeer.TAIL_OFFSET, ConformancePeer.TAIL_LENGTH))
            .as("the bytes the peer process wrote with its immediate")
            .isEqualTo(ConformancePeer.pattern(ConformancePeer.TAIL_LENGTH, ConformancePeer.TAIL_SEED));
        assertUntouched(region, ConformancePeer.PATTERN_LENGTH, ConformancePeer.TAIL_OFFSET
            - ConformancePeer.PATTERN_LENGTH);
        peer.awaitLine("READY");
        return child;
    }

    private List<String> newRdmaThreads() {
        final List<String> alive = new ArrayList<>();
        for (final Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.isAlive() && !threadsBefore.contains(thread)
                && thread.getName().toLowerCase(Locale.ROOT).contains("rdma")) {
                alive.add(thread.getName());
            }
        }
        return alive;
    }

    private static DeviceOptions withMaxRegisteredBytes(final DeviceOptions options, final long maxRegisteredBytes) {
        final DeviceOptions.Builder builder = DeviceOptions.builder().maxRegisteredBytes(maxRegisteredBytes);
        options.deviceName().ifPresent(builder::deviceName);
        options.directory().ifPresent(builder::directory);
        options.properties().forEach(builder::property);
        return builder.build();
    }

    // ------------------------------------------------------------------------------------------------- assertions

    static void assumeCapability(final Endpoint endpoint, final DeviceCapability capability) {
        assumeTrue(endpoint.device.capabilities().contains(capability), "the device has " + capability);
    }

    static void assumeOpcode(final Endpoint endpoint, final int opcode) {
        switch (opcode) {
            case RDMA_WRITE_WITH_IMM -> assumeCapability(endpoint, DeviceCapability.WRITE_WITH_IMMEDIATE);
            case RDMA_READ -> assumeCapability(endpoint, DeviceCapability.RDMA_READ);
            case SEND, SEND_WITH_IMM -> assumeCapability(endpoint, DeviceCapability.SEND_RECEIVE);
            default -> {
                // RDMA WRITE is what every provider does
            }
        }
    }

    static void assertSendSuccess(final CompletionRecord wc, final long wrId, final int workRequestOpcode,
                                  final Endpoint on) {
        assertThat(wc.status()).as("status of %s on %s: %s", wc, on, CompletionStatus.explain(wc.status()))
            .isEqualTo(SUCCESS);
        assertThat(wc.wrId()).as("wrId of %s", wc).isEqualTo(wrId);
        assertThat(wc.opcode()).as("opcode of %s, completing a %s", wc, WorkRequestOpcode.name(workRequestOpcode))
            .isEqualTo(CompletionOpcode.ofWorkRequest(workRequestOpcode));
        assertThat(wc.queuePairNumber()).as("queue pair number of %s", wc).isEqualTo(on.qp().number());
    }

    /** @param immediate the immediate expected, or null for a completion without one */
    static void assertReceiveSuccess(final CompletionRecord wc, final long wrId, final int opcode, final int byteLength,
                                     final Integer immediate, final Endpoint on) {
        assertThat(wc.status()).as("status of %s on %s: %s", wc, on, CompletionStatus.explain(wc.status()))
            .isEqualTo(SUCCESS);
        assertThat(wc.wrId()).as("wrId of %s", wc).isEqualTo(wrId);
        assertThat(wc.opcode()).as("opcode of %s: %s", wc, CompletionOpcode.name(opcode)).isEqualTo(opcode);
        assertThat(wc.byteLength()).as("byteLength of %s", wc).isEqualTo(byteLength);
        assertThat(wc.hasImmediate()).as("hasImmediate of %s", wc).isEqualTo(immediate != null);
        if (immediate != null) {
            assertThat(wc.immediate()).as("immediate of %s: 0x%s", wc, Integer.toHexString(immediate))
                .isEqualTo(immediate);
        }
        assertThat(wc.queuePairNumber()).as("queue pair number of %s", wc).isEqualTo(on.qp().number());
    }

    /** An error completion: the opcode is not checked (verbs leaves it undefined unless the status is success). */
    static void assertFailure(final CompletionRecord wc, final long wrId, final int status, final Endpoint on) {
        assertThat(wc.wrId()).as("wrId of %s", wc).isEqualTo(wrId);
        assertThat(wc.status()).as("status of %s on %s: expected %s", wc, on, CompletionStatus.name(status))
            .isEqualTo(status);
        assertThat(wc.queuePairNumber()).as("queue pair number of %s", wc).isEqualTo(on.qp().number());
    }

    static void assertFailure(final CompletionRecord wc, final long wrId, final Set<Integer> statuses,
                              final Endpoint on) {
        assertThat(wc.wrId()).as("wrId of %s", wc).isEqualTo(wrId);
        assertThat(wc.status()).as("status of %s on %s: one of %s", wc, on,
            statuses.stream().map(CompletionStatus::name).toList()).isIn(statuses);
        assertThat(wc.queuePairNumber()).as("queue pair number of %s", wc).isEqualTo(on.qp().number());
    }

    static void assertFlushed(final List<CompletionRecord> completions, final Endpoint on, final long... wrIds) {
        assertThat(completions).extracting(CompletionRecord::wrId).as("flushed completions on %s, in order", on)
            .containsExactly(Arrays.stream(wrIds).boxed().toArray(Long[]::new));
        for (final CompletionRecord wc : completions) {
            assertFailure(wc, wc.wrId(), WR_FLUSH_ERR, on);
        }
    }

    static void assertUntouched(final MemoryRegion region, final int offset, final int length) {
        final byte[] actual = bytes(region, offset, length);
        for (int i = 0; i < length; i++) {
            if (actual[i] != SENTINEL) {
                fail("byte %d of the region (in [%d, %d), which nothing should have written) is 0x%02x, not the "
                    + "sentinel 0x%02x", offset + i, offset, offset + length, actual[i], SENTINEL);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------- bytes

    static MemoryRegion sentinelFilled(final MemoryRegion region) {
        region.buffer().setMemory(0, (int) Math.min(region.length(), Integer.MAX_VALUE), SENTINEL);
        return region;
    }

    static byte[] bytes(final MemoryRegion region, final int offset, final int length) {
        final byte[] bytes = new byte[length];
        region.buffer().getBytes(offset, bytes);
        return bytes;
    }

    /** @return bytes that differ from their neighbours and from {@link #SENTINEL} runs */
    static byte[] pattern(final int length, final int seed) {
        return ConformancePeer.pattern(length, seed);
    }

    static byte[] text(final String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] concat(final byte[]... parts) {
        int length = 0;
        for (final byte[] part : parts) {
            length += part.length;
        }
        final byte[] whole = new byte[length];
        int at = 0;
        for (final byte[] part : parts) {
            System.arraycopy(part, 0, whole, at, part.length);
            at += part.length;
        }
        return whole;
    }

    // ---------------------------------------------------------------------------------------------- fault tables

    /** Requests that consume a receive on the peer. */
    enum ReceiveConsumer {
        SEND(WorkRequestOpcode.SEND),
        SEND_WITH_IMM(WorkRequestOpcode.SEND_WITH_IMM),
        RDMA_WRITE_WITH_IMM(WorkRequestOpcode.RDMA_WRITE_WITH_IMM);

        final int opcode;

        ReceiveConsumer(final int opcode) {
            this.opcode = opcode;
        }
    }

    /** One-sided requests the responder must refuse with a remote access error. */
    enum RemoteFault {
        WRITE_WITH_A_WRONG_RKEY(RDMA_WRITE, ALL_ACCESS, true, false, 0, 8),
        WRITE_WITH_IMM_WITH_A_WRONG_RKEY(RDMA_WRITE_WITH_IMM, ALL_ACCESS, true, false, 0, 8),
        READ_WITH_A_WRONG_RKEY(RDMA_READ, ALL_ACCESS, true, false, 0, 8),
        WRITE_ENDING_ONE_BYTE_PAST_THE_REGION(RDMA_WRITE, ALL_ACCESS, false, true, -7, 8),
        WRITE_STARTING_AT_THE_END_OF_THE_REGION(RDMA_WRITE, ALL_ACCESS, false, true, 0, 1),
        WRITE_STARTING_ONE_BYTE_BEFORE_THE_REGION(RDMA_WRITE, ALL_ACCESS, false, false, -1, 8),
        WRITE_WITH_IMM_ENDING_ONE_BYTE_PAST_THE_REGION(RDMA_WRITE_WITH_IMM, ALL_ACCESS, false, true, -7, 8),
        READ_ENDING_ONE_BYTE_PAST_THE_REGION(RDMA_READ, ALL_ACCESS, false, true, -7, 8),
        WRITE_TO_A_REGION_WITHOUT_REMOTE_WRITE(RDMA_WRITE, Access.LOCAL_WRITE | Access.REMOTE_READ, false, false, 0, 8),
        WRITE_WITH_IMM_TO_A_REGION_WITHOUT_REMOTE_WRITE(RDMA_WRITE_WITH_IMM, Access.LOCAL_WRITE | Access.REMOTE_READ,
            false, false, 0, 8),
        READ_FROM_A_REGION_WITHOUT_REMOTE_READ(RDMA_READ, WRITABLE, false, false, 0, 8);

        final int opcode;
        final int targetAccess;
        final boolean wrongKey;
        final boolean fromEnd;
        final long offset;
        final int length;

        RemoteFault(final int opcode, final int targetAccess, final boolean wrongKey, final boolean fromEnd,
                    final long offset, final int length) {
            this.opcode = opcode;
            this.targetAccess = targetAccess;
            this.wrongKey = wrongKey;
            this.fromEnd = fromEnd;
            this.offset = offset;
            this.length = length;
        }
    }

    /** Gather entries the requester must refuse with a local protection error. */
    enum LocalFault {
        WRONG_LKEY,
        RANGE_PAST_THE_END,
        RANGE_BEFORE_THE_START,
        DEREGISTERED_REGION
    }
}
