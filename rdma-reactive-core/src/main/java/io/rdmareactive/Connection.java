package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecRegistry;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A connection between two processes: messages in through {@link #inbound()}, out through {@link #outbound()}.
 * {@link #dispose()} closes it and frees its rings, registrations and files.
 */
public interface Connection extends Disposable {

    /** @return the messages the peer sends */
    Inbound inbound();

    /** @return where to send messages to the peer */
    Outbound outbound();

    /**
     * Who the peer is, as the provider knows it: for logs, and for a handler or hook to tell its peers apart. It is
     * what the transport reports, not a proven identity (for that, see {@code secret(byte[])} on the builders).
     * <ul>
     *   <li>shared memory, on the server: {@code process <pid>, device <device id>, queue pair <n>}, the client's
     *   process id first;</li>
     *   <li>shared memory, on the client: {@code listener '<address>', device <device id>, queue pair <n>};</li>
     *   <li>verbs: the peer's {@code IP:port} (on the client, the address it connected to).</li>
     * </ul>
     * A shared-memory device id is {@code <pid>-<hex>}: the process id of the process that opened the device, and a
     * number that tells its devices apart.
     *
     * @return the peer's description, fixed for the connection's life
     */
    String peer();

    /**
     * @return the counters of the runtime that serves this connection, as they are now (every server and connection
     * on one runtime shares them)
     */
    RdmaCounters counters();

    /** @return a Mono that completes when the connection is closed, or fails with why it ended */
    Mono<Void> onDispose();

    /**
     * Sends one message to the peer's {@link StreamHandler} on a stream of its own, expecting no answer.
     *
     * @return completes when the message was sent
     */
    <Q> Mono<Void> fireAndForget(Q request, Codec<Q> codec);

    /**
     * Sends one message and waits for one answer. Each subscription is one call. A side's calls share one stream of
     * the connection, its call stream: up to 1,024 are in flight at once, and the answers come in whatever order the
     * peer's handlers finish; 1,024 more wait, in order, and a further call fails at once with
     * {@link RdmaStreamsBusyException}. Cancelling a call that was sent tells the peer to stop its handler. The answer
     * is delivered on the connection's event loop.
     *
     * @return the answer, or empty if the handler answered nothing; a {@link RdmaStreamException} with the handler's
     * message if it failed; a {@link java.util.concurrent.TimeoutException} if none came within the client's request
     * timeout (default 30 s)
     */
    <Q, R> Mono<R> requestResponse(Q request, Codec<Q> requestCodec, Codec<R> responseCodec);

    /**
     * Sends one message and receives a stream of answers, as many as this side requests.
     *
     * @return the answers
     */
    <Q, R> Flux<R> requestStream(Q request, Codec<Q> requestCodec, Codec<R> responseCodec);

    /**
     * Streams messages each way on a stream of their own, each direction with its own back-pressure.
     *
     * @return the answers
     */
    <Q, R> Flux<R> requestChannel(Publisher<? extends Q> requests, Codec<Q> requestCodec, Codec<R> responseCodec);

    /**
     * Registers memory the peer of this connection may reach with one-sided operations, with the rights given (none:
     * memory for this side's own operations only, as the source of a write or the target of a read). The region is
     * this connection's alone: its key works on no other connection. Send its {@link LocalRegion#descriptor()} to the
     * peer in any message.
     *
     * @param length bytes, 1 to {@link Integer#MAX_VALUE}
     * @return the region; close it to revoke the peer's access and free the memory
     * @throws RdmaConnectionException if the connection ended, or the memory could not be registered
     */
    LocalRegion registerRegion(long length, RegionAccess... rights);

    /**
     * Registers the memory of {@code memoryOf} (a region of any connection of this process) on this connection too, as
     * a region of its own, with its own key and the rights given: so a server exposes one table to many peers, each
     * through its own connection. The memory is freed once every region over it is closed.
     *
     * @return the region on this connection
     * @throws IllegalStateException if {@code memoryOf} is closed
     * @throws RdmaConnectionException if the connection ended, or the memory could not be registered here
     */
    LocalRegion registerRegion(LocalRegion memoryOf, RegionAccess... rights);

    /**
     * The peer's memory that {@code descriptor} describes, for one-sided operations through this connection.
     *
     * @param descriptor a descriptor the peer sent on this connection
     * @return the remote region
     * @throws RdmaRemoteAccessException ({@link RdmaRemoteAccessException.Reason#OTHER_CONNECTION}) if the descriptor
     *     came from another connection
     */
    RemoteRegion remoteRegion(RegionDescriptor descriptor);

    /** @return how many one-sided operations the connection keeps in flight at most ({@link RemoteRegion#execute}) */
    int maxOneSidedInFlight();

    /**
     * The codecs this connection picks by type for the {@code Class}-taking methods (set with
     * {@code RdmaClient.codecs(...)} / {@code RdmaServer.codecs(...)}; the built-ins by default).
     *
     * @return the connection's codec registry
     */
    CodecRegistry codecs();

    /**
     * {@link #fireAndForget(Object, Codec)} with the codec {@link #codecs()} has for {@code requestType}.
     *
     * @return completes when the message was sent
     * @throws io.rdmareactive.codec.NoSuchCodecException at once, naming the type, if there is no codec for it
     */
    default <Q> Mono<Void> fireAndForget(final Q request, final Class<Q> requestType) {
        return fireAndForget(request, codecs().codecFor(requestType));
    }

    /**
     * {@link #requestResponse(Object, Codec, Codec)} with the codecs {@link #codecs()} has for the two types.
     *
     * @return the answer, as {@link #requestResponse(Object, Codec, Codec)}
     * @throws io.rdmareactive.codec.NoSuchCodecException at once, naming the type, if there is no codec for one
     */
    default <Q, R> Mono<R> requestResponse(final Q request, final Class<Q> requestType, final Class<R> responseType) {
        return requestResponse(request, codecs().codecFor(requestType), codecs().codecFor(responseType));
    }

    /**
     * {@link #requestStream(Object, Codec, Codec)} with the codecs {@link #codecs()} has for the two types.
     *
     * @return the answers
     * @throws io.rdmareactive.codec.NoSuchCodecException at once, naming the type, if there is no codec for one
     */
    default <Q, R> Flux<R> requestStream(final Q request, final Class<Q> requestType, final Class<R> responseType) {
        return requestStream(request, codecs().codecFor(requestType), codecs().codecFor(responseType));
    }

    /**
     * {@link #requestChannel(Publisher, Codec, Codec)} with the codecs {@link #codecs()} has for the two types.
     *
     * @return the answers
     * @throws io.rdmareactive.codec.NoSuchCodecException at once, naming the type, if there is no codec for one
     */
    default <Q, R> Flux<R> requestChannel(final Publisher<? extends Q> requests, final Class<Q> requestType,
                                          final Class<R> responseType) {
        return requestChannel(requests, codecs().codecFor(requestType), codecs().codecFor(responseType));
    }
}
