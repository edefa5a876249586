package dev.cairn.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.testing.SourceDependencies;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the sidecar's structure true by reading its sources ({@link SourceDependencies}): each package below
 * {@code dev.cairn.sidecar} names the others it uses in code. The worker SPI ({@code dev.cairn.sidecar.hook}) lives
 * in the cairn-sidecar-api module, whose own test keeps it free of the sidecar; every package here may use it. The
 * rules:
 * <ul>
 *   <li>no class of this module is in the SPI's package (one package, one artifact);</li>
 *   <li>configuration and main ({@code app}) wire everything, and nothing uses them;</li>
 *   <li>the pure rules ({@code core}) use no Kafka, and no other package of the sidecar: of it only the SPI, whose
 *       requests and results they decide about;</li>
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
        assertThat(sources.packages()).contains("app", "core", "hook.command", "hook.http", "kafka", "metrics");
        assertThat(sources.uses("kafka")).as("the scan sees what the shell uses").contains("core");
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
        assertThat(sources.uses("core")).as("packages of the sidecar core uses, the SPI aside").isEmpty();
    }

    @Test
    void shouldLeaveTheHookContractToTheApiModuleWhenBuildingTheSidecar() {
        assertThat(sources.packages()).as("the SPI's package is the API module's alone").doesNotContain("hook");
    }

    @Test
    void shouldUseOnlyTheHookContractWhenBridgingOrMeteringHooks() {
        assertThat(sources.uses("hook.http")).as("packages the HTTP hook uses, the SPI aside").isEmpty();
        assertThat(sources.uses("hook.command")).as("packages the command hook uses, the SPI aside")
                .isSubsetOf("hook.http");
        assertThat(sources.uses("metrics")).as("packages the metrics use, the SPI aside").isEmpty();
        assertThat(sources.usingKafka()).doesNotContain("hook.http", "hook.command", "metrics");
    }

    @Test
    void shouldDriveHooksOnlyThroughTheContractWhenInTheKafkaShell() {
        assertThat(sources.uses("kafka")).as("packages the shell uses, the SPI aside").isSubsetOf("core");
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
