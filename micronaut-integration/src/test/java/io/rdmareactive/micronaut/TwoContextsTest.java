package io.rdmareactive.micronaut;

import io.micronaut.test.support.TestPropertyProvider;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The shape of a test with two application contexts: the server side starts (its own context, see {@link TwoSides})
 * before the test's {@code @MicronautTest} context, whose client properties point at it, and stops after the class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TwoContextsTest implements TestPropertyProvider {

    protected final TwoSides sides;

    /** @param spec the {@code spec.name} that selects this test's beans on both sides */
    TwoContextsTest(final String spec) {
        this.sides = new TwoSides(spec);
    }

    @Override
    public Map<String, String> getProperties() {
        sides.startServer();
        return sides.clientProperties();
    }

    @AfterAll
    void stopServer() {
        sides.close();
    }
}
