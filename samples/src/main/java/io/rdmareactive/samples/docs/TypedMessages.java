package io.rdmareactive.samples.docs;

// tag::typed[]
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmareactive.Connection;
import io.rdmareactive.DisposableServer;
import io.rdmareactive.RdmaClient;
import io.rdmareactive.RdmaServer;
import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.codec.json.JsonCodec;
import java.time.Duration;
import java.util.List;
import reactor.core.publisher.Flux;
// end::typed[]

/**
 * codecs.md's two ways of naming a codec: by codec ({@code Codecs.UTF8_STRING}) and by type, through the connection's
 * {@link CodecRegistry}: an {@link Order} with {@link OrderCodec}, a {@link Fill} as JSON.
 */
public final class TypedMessages {

    private TypedMessages() {
    }

    /**
     * What the exchange got back.
     *
     * @param fills  the server's fills of the orders sent, in order
     * @param answer the server's answer to a string request
     */
    public record Answers(List<Fill> fills, String answer) {
    }

    /** @return what a server that fills orders and upper-cases requests answered */
    public static Answers exchange() {
        // tag::typed[]
        // the codecs the Class-taking methods pick: the built-ins, OrderCodec for Order, JSON for any other type
        CodecRegistry codecs = CodecRegistry.defaults()
            .with(Order.class, new OrderCodec())
            .withFallback(JsonCodec.factory(new ObjectMapper()));   // module rdma-reactive-codecs-json

        // a server that fills each order it is sent (by type) and upper-cases each request (by codec)
        DisposableServer server = RdmaServer.create().provider("shm").codecs(codecs)
            .handle((in, out) -> out.send(in.receive(Order.class).map(order -> new Fill(order.id(), order.quantity())),
                Fill.class))
            .handleStreams((kind, in, out) -> out.send(in.receive(Codecs.UTF8_STRING).map(String::toUpperCase),
                Codecs.UTF8_STRING))
            .bindNow();
        Connection connection = RdmaClient.create().provider("shm").address(server.address()).codecs(codecs)
            .connectNow();

        // by codec: named at each call
        String answer = connection.requestResponse("acme", Codecs.UTF8_STRING, Codecs.UTF8_STRING)
            .block(Duration.ofSeconds(10));
        // by type; the connection ends after this exchange, as the server's handler does
        List<Fill> fills = connection.inbound().receive(Fill.class).collectList()
            .zipWith(connection.outbound().send(Flux.just(new Order(1, 10), new Order(2, 5)), Order.class)
                .thenReturn(true), (received, sent) -> received)
            .block(Duration.ofSeconds(10));
        // end::typed[]
        connection.dispose();
        server.dispose();
        server.onDispose().block(Duration.ofSeconds(10));
        return new Answers(fills, answer);
    }
}
