package io.rdmareactive.perf.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;

/** Writes every figure of a run as {@code results.json}; NaN (a figure that could not be computed) as "NaN". */
final class ResultsJson {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultsJson() {
    }

    static String toJson(final Results results) throws IOException {
        return MAPPER.writeValueAsString(results.asMap());
    }

    static void write(final Results results, final Path file) throws IOException {
        MAPPER.writeValue(file.toFile(), results.asMap());
    }
}
