package dev.cairn.demo.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.cairn.cli.CliKeys;
import dev.cairn.config.ConfigSchema;
import dev.cairn.coordinator.app.CoordinatorKeys;
import dev.cairn.coordinator.rest.routes.Route;
import dev.cairn.sample.worker.SampleWorkerKeys;
import dev.cairn.sidecar.app.SidecarKeys;
import dev.cairn.sidecar.metrics.MetricsServer;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Dockerfiles cannot be built on the build machines (no Docker engine). This keeps them consistent with the code
 * and with what runs them: one tag convention, {@code cairn/<name>:<the project's version>}, in the build lines,
 * {@code docker-compose.yml} and every manifest under {@code deploy/kubernetes/}; every image runs as the non-root
 * user the manifests' {@code runAsUser} names, and owns the directories it writes to; the coordinator's and the
 * sidecar's health checks ask the paths their code serves, on the ports their keys name.
 */
class ContainerImagesConsistencyTest {

    private static final Map<String, String> NAMES = Map.of("coordinator-service", "cairn/coordinator",
            "task-sidecar", "cairn/sidecar", "sample-worker", "cairn/sample-worker", "cairn-cli", "cairn/cli");
    private static final Map<String, ConfigSchema> KEYS = Map.of("coordinator-service", CoordinatorKeys.SCHEMA,
            "task-sidecar", SidecarKeys.SCHEMA, "sample-worker", SampleWorkerKeys.SCHEMA, "cairn-cli", CliKeys.SCHEMA);

    @Test
    void shouldTagEveryImageAsCairnNameAndTheProjectsVersionWhereverItIsNamed() throws IOException {
        String version = Dockerfile.projectVersion();
        List<String> tags = Dockerfile.all().stream().map(Dockerfile::image).toList();

        for (Dockerfile dockerfile : Dockerfile.all()) {
            assertThat(dockerfile.image()).isEqualTo(NAMES.get(dockerfile.module()) + ":" + version);
        }
        JsonNode compose = new YAMLMapper().readTree(KustomizeTree.ROOT.resolve("docker-compose.yml").toFile());
        compose.path("services").properties().forEach(service -> {
            JsonNode build = service.getValue().path("build");
            if (!build.isMissingNode()) {
                String module = build.path("dockerfile").asText().replace("/Dockerfile", "");
                assertThat(service.getValue().path("image").asText()).as("the image of compose service %s",
                        service.getKey()).isEqualTo(Dockerfile.of(module).image());
            }
        });
        List<String> images = new ArrayList<>();
        KustomizeTree.all().forEach(folder -> KustomizeTree.read(folder).all(StatefulSet.class)
                .forEach(set -> KustomizeTree.containers(set).forEach(c -> images.add(c.getImage()))));
        assertThat(images).as("the images the manifests run").isNotEmpty().allSatisfy(image -> assertThat(tags)
                .contains(image));
    }

    @Test
    void shouldRunEveryImageAsTheUserTheManifestsNameWhenItStarts() {
        for (Dockerfile dockerfile : Dockerfile.all()) {
            assertThat(dockerfile.user()).as("the USER of %s", dockerfile.path()).hasValue(Dockerfile.USER);
            assertThat(dockerfile.finalStage()).as(dockerfile.path()).anySatisfy(line -> assertThat(line)
                    .contains("useradd --uid 10001 --gid 10001"));
            assertThat(dockerfile.indexOf("USER ")).as("the user runs the program, not the build steps")
                    .isGreaterThan(dockerfile.indexOf("RUN java")).isLessThan(dockerfile.indexOf("ENTRYPOINT"));
        }
        KustomizeTree.all().forEach(folder -> KustomizeTree.read(folder).all(StatefulSet.class)
                .forEach(set -> PodSecurity.assertRestricted(set, Dockerfile.USER)));
    }

    @Test
    void shouldOwnTheDirectoriesTheProgramsWriteWhenTheyRunAsTheUser() {
        Map<String, String> stateDirs = Map.of("coordinator-service", "/var/lib/cairn", "sample-worker",
                "/var/lib/cairn-worker");
        stateDirs.forEach((module, dir) -> {
            Dockerfile dockerfile = Dockerfile.of(module);
            assertThat(dockerfile.finalStage()).as(dockerfile.path()).anySatisfy(line -> assertThat(line)
                    .contains("mkdir -p " + dir + " && chown " + Dockerfile.USER + " " + dir));
        });
        Dockerfile coordinator = Dockerfile.of("coordinator-service");
        assertThat(coordinator.environment()).containsEntry(CoordinatorKeys.SCHEMA.envName("state.dir"),
                stateDirs.get("coordinator-service"));
        assertThat(coordinator.indexOf("VOLUME ")).as("made and owned before it is a volume")
                .isGreaterThan(coordinator.indexOf("RUN groupadd"));
        String workerDir = StatefulSetEnv.of("worker-example", "worker").get(SampleWorkerKeys.SCHEMA.envName(
                SampleWorkerKeys.STATE_DIR));
        assertThat(workerDir).isEqualTo(stateDirs.get("sample-worker"));
    }

    @Test
    void shouldSetOnlyVariablesEachProgramReadsWhenAnImageSetsDefaults() {
        for (Dockerfile dockerfile : Dockerfile.all()) {
            ConfigSchema keys = KEYS.get(dockerfile.module());
            Set<String> names = Set.copyOf(keys.def().names().stream().map(keys::envName).toList());
            assertThat(dockerfile.environment().keySet()).as("ENV of %s", dockerfile.path())
                    .allSatisfy(name -> assertThat(names).contains(name));
        }
    }

    @Test
    void shouldAskTheCoordinatorsLivenessPathOnItsProbesPortWhenDockerChecksItsHealth() {
        String check = Dockerfile.of("coordinator-service").healthCheck().orElseThrow();
        String probesPort = StatefulSetEnv.of("base", "coordinator").get(CoordinatorKeys.SCHEMA.envName(
                "http.probes.port"));

        assertThat(check).contains("/dev/tcp/127.0.0.1/${" + CoordinatorKeys.SCHEMA.envName("http.probes.port")
                + ":-" + probesPort + "}");
        assertThat(check).contains("'GET " + Route.HEALTH.path() + " HTTP/1.0");
        assertThat(check).contains("grep -q ' 200 '");
    }

    @Test
    void shouldAskTheSidecarsHealthOnItsMetricsPortWhenDockerChecksItsHealth() {
        Dockerfile sidecar = Dockerfile.of("task-sidecar");
        String portVariable = SidecarKeys.SCHEMA.envName(SidecarKeys.METRICS_PORT);
        String check = sidecar.healthCheck().orElseThrow();

        assertThat(sidecar.environment()).containsKey(portVariable);
        assertThat(sidecar.finalStage()).contains("EXPOSE " + sidecar.environment().get(portVariable));
        assertThat(check).contains("/dev/tcp/127.0.0.1/${" + portVariable + "}");
        assertThat(check).contains("'GET " + MetricsServer.HEALTH_PATH + " HTTP/1.0");
        assertThat(StatefulSetEnv.of("worker-example", "cairn-sidecar").get(portVariable))
                .as("the port the worker example probes").isEqualTo(sidecar.environment().get(portVariable));
        assertThat(Dockerfile.of("cairn-cli").healthCheck()).as("a command, not a service").isEmpty();
    }

    /** The literal environment of one container of the StatefulSet of a kustomization. */
    private static final class StatefulSetEnv {

        static Map<String, String> of(String folder, String container) {
            KustomizeTree tree = KustomizeTree.read(KustomizeTree.DEPLOY.resolve(Path.of(folder)));
            Container found = tree.all(StatefulSet.class).stream().flatMap(s -> KustomizeTree.containers(s).stream())
                    .filter(c -> c.getName().equals(container)).findFirst().orElseThrow();
            return KustomizeTree.literalEnvironment(found);
        }
    }
}
