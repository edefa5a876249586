package dev.cairn.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.testing.SourceDependencies;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the sidecar's structure true by reading its sources ({@link SourceDependencies}): each package below
 * {@code dev.cairn.sidecar} names the others it uses in code. The rules:
 * <ul>
 *   <li>configuration and main ({@code app}) wire everything, and nothing uses them;</li>
 *   <li>the pure rules ({@code core}) use no Kafka, and of the sidecar only the worker SPI ({@code hook}), whose
 *       requests and results they decide about;</li>
 *   <li>the SPI ({@code hook}) uses no other package of the sidecar;</li>
 *   <li>its bridges ({@code hook.http}, {@code hook.command}) and the metrics use only the SPI (the command hook
 *       reads a command's output with the HTTP hook's JSON, never the other way) and no Kafka;</li>
 *   <li>the Kafka shell ({@code kafka}) uses the rules and the SPI only: it drives whatever hook it is handed;</li>
 *   <li>only the shell and main use Kafka;</li>
 *   <li>no two packages use each other, however indirectly.</li>
 * </ul>
 */
class ArchitectureTest {

    private static SourceDependencies sources;

    @BeforeAll
    static void readSources() {
        sources = SourceDependencies.read("dev.cairn.sidecar");
    }

    @Test
    void shouldFindEveryPackageWhenReadingTheSources() {
        assertThat(sources.packages()).contains("app", "core", "hook", "hook.command", "hook.http", "kafka", "metrics");
        assertThat(sources.uses("kafka")).as("the scan sees what the shell uses").contains("core", "hook");
        assertThat(sources.usingKafka()).as("the scan sees Kafka").contains("kafka");
    }

    @Test
    void shouldNotUseAppWhenOutsideIt() {
        assertThat(sources.usersOf("app")).isEmpty();
    }

    @Test
    void shouldNotUseKafkaWhenDecidingInTheCore() {
        assertThat(sources.usingKafka()).doesNotContain("core");
    }

    @Test
    void shouldUseOnlyTheHookContractWhenDecidingInTheCore() {
        assertThat(sources.uses("core")).as("packages core uses").isSubsetOf("hook");
    }

    @Test
    void shouldUseNothingOfTheSidecarWhenStatingTheHookContract() {
        assertThat(sources.uses("hook")).as("packages the SPI uses").isEmpty();
    }

    @Test
    void shouldUseOnlyTheHookContractWhenBridgingOrMeteringHooks() {
        assertThat(sources.uses("hook.http")).as("packages the HTTP hook uses").containsOnly("hook");
        assertThat(sources.uses("hook.command")).as("packages the command hook uses")
                .isSubsetOf("hook", "hook.http");
        assertThat(sources.uses("metrics")).as("packages the metrics use").isSubsetOf("hook");
        assertThat(sources.usingKafka()).doesNotContain("hook", "hook.http", "hook.command", "metrics");
    }

    @Test
    void shouldDriveHooksOnlyThroughTheContractWhenInTheKafkaShell() {
        assertThat(sources.uses("kafka")).as("packages the shell uses").isSubsetOf("core", "hook");
    }

    @Test
    void shouldUseKafkaOnlyWhenInTheShellOrMain() {
        assertThat(sources.usingKafka()).isSubsetOf("kafka", "app");
    }

    @Test
    void shouldHaveNoLoopWhenFollowingPackageUses() {
        for (String start : sources.packages()) {
            assertThat(sources.reachableFrom(start)).as("packages reachable from %s", start).doesNotContain(start);
        }
    }
}
