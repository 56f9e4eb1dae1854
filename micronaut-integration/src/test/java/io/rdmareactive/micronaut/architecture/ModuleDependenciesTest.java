package io.rdmareactive.micronaut.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The rule of docs/architecture.md for this module: micronaut-integration sees core's public API (and the codecs, Agrona, Reactor),
 * Micronaut and its optional management and Micrometer modules; never core's SPI, providers or internals, and never
 * the samples or perf, which sit above it.
 */
class ModuleDependenciesTest {

    private final JavaClasses production = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.rdmareactive.micronaut");

    @Test
    void theIntegrationUsesOnlyCoresPublicApi() {
        classes().that().resideInAPackage("io.rdmareactive.micronaut..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.rdmareactive",
                "io.rdmareactive.codec..", "io.rdmareactive.micronaut..", "org.agrona..", "reactor..",
                "org.reactivestreams..", "io.micronaut..", "jakarta..", "io.micrometer..")
            .because("core's SPI, providers and internals may change under any module above it")
            .check(production);
    }

    @Test
    void nothingHereSeesTheSamplesOrPerf() {
        noClasses().that().resideInAPackage("io.rdmareactive.micronaut..")
            .should().dependOnClassesThat().resideInAnyPackage("io.rdmareactive.samples..", "io.rdmareactive.perf..")
            .check(production);
    }

    @Test
    void thePublicPackagesDoNotNeedTheOptionalModules() {
        noClasses().that().resideInAnyPackage("io.rdmareactive.micronaut", "io.rdmareactive.micronaut.config..",
                "io.rdmareactive.micronaut.internal..")
            .should().dependOnClassesThat().resideInAnyPackage("io.micronaut.management..", "io.micrometer..",
                "io.micronaut.configuration.metrics..")
            .because("an application without micronaut-management or Micrometer must still load them")
            .check(production);
    }

    @Test
    void itLogsThroughReactorsLoggersOnly() {
        noClasses().that().resideInAPackage("io.rdmareactive.micronaut..")
            .should().dependOnClassesThat().resideInAnyPackage("java.util.logging..", "org.slf4j..")
            .orShould().dependOnClassesThat().belongToAnyOf(System.Logger.class, System.LoggerFinder.class)
            .because("every module logs through Reactor's Loggers, which use the application's SLF4J binding")
            .check(production);
    }
}
