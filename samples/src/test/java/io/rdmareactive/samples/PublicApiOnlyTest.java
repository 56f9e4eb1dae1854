package io.rdmareactive.samples;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The samples show what an application sees, so they use the public API only: the root package and the codecs,
 * with Agrona's buffers (part of that API), Reactor and HdrHistogram, and for the Micronaut services the Micronaut
 * integration's annotations, Micronaut, Jackson and SLF4J; never the SPI, a provider or anything internal (the
 * Micronaut integration's {@code internal} package included).
 */
class PublicApiOnlyTest {

    @Test
    void theSamplesUseOnlyThePublicApi() {
        final JavaClasses samples = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rdmareactive.samples");
        classes().that().resideInAPackage("io.rdmareactive.samples..")
            .and().haveNameNotMatching(".*\\.\\$.*") // what Micronaut's annotation processor generated
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.rdmareactive",
                "io.rdmareactive.codec..", "io.rdmareactive.samples..", "org.agrona..", "reactor..",
                "org.reactivestreams..", "org.HdrHistogram..", "io.rdmareactive.micronaut",
                "io.rdmareactive.micronaut.config..", "io.micronaut..", "jakarta..", "com.fasterxml.jackson..",
                "org.slf4j..")
            .because("a sample that reaches below the public API would teach what an application cannot do")
            .check(samples);
    }
}
