package io.rdmareactive.samples.docs;

import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
// tag::serve[]
import io.rdmareactive.RdmaServer;
// tag::ask[]
import io.rdmareactive.codec.Codecs;
// end::serve[]
import java.time.Duration;
// end::ask[]
import java.util.Collection;
// tag::ask[]
import java.util.List;
// tag::serve[]
import reactor.core.publisher.Flux;
// end::serve[]
import reactor.core.publisher.Mono;
// end::ask[]

/**
 * The four interaction models of getting-started.md: a server that serves each with {@code handleStreams}, and a
 * client that makes one request of each.
 */
public final class InteractionModels {

    private InteractionModels() {
    }

    /**
     * What {@link #ask(Connection)} got back.
     *
     * @param answer the request/response call's answer
     * @param items  the request/stream's answers
     * @param echoes the channel's answers
     * @param calls  how many of many concurrent calls were answered
     */
    public record Answers(String answer, List<String> items, List<String> echoes, int calls) {
    }

    /**
     * @param fired where the server puts the fire-and-forget messages it receives
     * @return a server, at a fresh address, that serves each interaction model
     */
    public static DisposableServer serve(final Collection<String> fired) {
        // tag::serve[]
        return RdmaServer.create().provider("shm")
            .handleStreams((kind, in, out) -> switch (kind) {
                case FIRE_AND_FORGET -> in.receive(Codecs.UTF8_STRING).doOnNext(fired::add).then();
                case REQUEST_RESPONSE -> out.send(in.receive(Codecs.UTF8_STRING).next().map(String::toUpperCase),
                    Codecs.UTF8_STRING);
                case REQUEST_STREAM -> out.send(in.receive(Codecs.UTF8_STRING).next()
                    .flatMapMany(request -> Flux.range(1, Integer.parseInt(request)).map(i -> "item " + i)),
                    Codecs.UTF8_STRING);
                case CHANNEL -> out.send(in.receive(Codecs.UTF8_STRING).map(s -> s + "!"), Codecs.UTF8_STRING);
            })
            .bindNow();
        // end::serve[]
    }

    /**
     * @param connection a connection to {@link #serve(Collection)}'s server
     * @return what the server answered
     */
    public static Answers ask(final Connection connection) {
        // tag::ask[]
        Duration bound = Duration.ofSeconds(30);

        // fire-and-forget: completes once the message is sent
        connection.fireAndForget("audit: session started", Codecs.UTF8_STRING).block(bound);

        // request/response: one answer (or an error after RdmaClient.requestTimeout)
        String answer = connection.requestResponse("acme", Codecs.UTF8_STRING, Codecs.UTF8_STRING).block(bound);

        // request/stream: as many answers as the subscriber asks for
        List<String> items = connection.requestStream("3", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .collectList().block(bound);

        // channel: a stream each way, each direction with its own back-pressure
        List<String> echoes = connection.requestChannel(Flux.just("a", "b", "c"), Codecs.UTF8_STRING,
                Codecs.UTF8_STRING)
            .collectList().block(bound);

        // many calls at once: all of them on the connection's call stream, 256 in flight
        Mono<Long> calls = Flux.range(0, 10_000)
            .flatMap(i -> connection.requestResponse("call " + i, Codecs.UTF8_STRING, Codecs.UTF8_STRING), 256)
            .count();
        // end::ask[]
        return new Answers(answer, items, echoes, calls.block(bound).intValue());
    }
}
