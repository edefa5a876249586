package dev.cairn.demo.deploy;

import static dev.cairn.demo.deploy.KustomizeTree.DEPLOY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.config.ConfigSchema;
import dev.cairn.config.LayeredConfig;
import dev.cairn.sample.worker.SampleWorkerKeys;
import dev.cairn.sidecar.app.SidecarConfig;
import dev.cairn.sidecar.app.SidecarKeys;
import dev.cairn.sidecar.metrics.MetricsServer;
import dev.cairn.sidecar.metrics.SidecarHealth;
import dev.cairn.sidecar.metrics.SidecarMetrics;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The worker example ({@code deploy/kubernetes/worker-example}): the sample worker with the task sidecar as a native
 * sidecar container, read into Kubernetes' typed objects and kept consistent with the code: the sidecar's and the
 * worker's variables are keys they read, with values their configurations accept; the probes ask {@code /health} on
 * the sidecar's metrics port, and a real {@link MetricsServer} answers that path 503 while the sidecar is down and 200
 * once it is up; the job's key comes from a generated Secret that is never committed; the pods run restricted as the
 * images' user.
 */
class KubernetesWorkerManifestTest {

    private static final Path EXAMPLE = DEPLOY.resolve("worker-example");
    private static final ConfigSchema SIDECAR = SidecarKeys.SCHEMA;
    private final KustomizeTree example = KustomizeTree.read(EXAMPLE);
    private final StatefulSet set = example.get(StatefulSet.class, "demo-job-source");

    @Test
    void shouldRunTheSidecarAsANativeSidecarBeforeTheWorkerWhenThePodStarts() {
        List<Container> init = set.getSpec().getTemplate().getSpec().getInitContainers();

        assertThat(init).singleElement().satisfies(c -> {
            assertThat(c.getName()).isEqualTo("cairn-sidecar");
            assertThat(c.getRestartPolicy()).as("a native sidecar container").isEqualTo("Always");
        });
        assertThat(set.getSpec().getTemplate().getSpec().getContainers()).extracting(Container::getName)
                .containsExactly("worker");
        assertThat(sidecar().getImage()).isEqualTo(Dockerfile.of("task-sidecar").image());
        assertThat(worker().getImage()).isEqualTo(Dockerfile.of("sample-worker").image());
        PodSecurity.assertRestricted(set, Dockerfile.USER);
    }

    @Test
    void shouldSetOnlyKeysTheSidecarAndTheWorkerReadWithValuesTheyAccept() {
        Map<String, String> sidecarEnv = resolved(sidecar());
        Map<String, String> workerEnv = resolved(worker());
        ConfigSchema workerKeys = SampleWorkerKeys.SCHEMA;

        assertThat(sidecarEnv.keySet()).allSatisfy(name -> assertThat(SIDECAR.def().names().stream()
                .map(SIDECAR::envName).toList()).as("keys the sidecar reads").contains(name));
        assertThat(workerEnv.keySet()).allSatisfy(name -> assertThat(workerKeys.def().names().stream()
                .map(workerKeys::envName).toList()).as("keys the sample worker reads").contains(name));
        LayeredConfig sidecarConfig = LayeredConfig.load(SIDECAR, Map.of(), sidecarEnv, null);
        LayeredConfig workerConfig = LayeredConfig.load(workerKeys, Map.of(), workerEnv, null);
        assertThat(sidecarConfig.getString(SidecarKeys.HOOK_URL)).as("the worker in the same pod")
                .isEqualTo("http://127.0.0.1:" + workerConfig.getInt(SampleWorkerKeys.PORT));
        assertThat(sidecarConfig.getString(SidecarKeys.METRICS_BIND_ADDRESS)).as("reached by the kubelet")
                .isEqualTo("0.0.0.0");
        assertThat(workerConfig.getString(SampleWorkerKeys.STATE_DIR)).isIn(PodSecurity.mounts(worker()).keySet());
    }

    @Test
    void shouldTakeEachPodsSubtaskFromItsIndexInTheStatefulSet() {
        EnvVar subtask = sidecar().getEnv().stream()
                .filter(e -> e.getName().equals(SIDECAR.envName(SidecarKeys.SUBTASK_INDEX))).findFirst()
                .orElseThrow();

        assertThat(subtask.getValueFrom().getFieldRef().getFieldPath())
                .isEqualTo("metadata.labels['apps.kubernetes.io/pod-index']");
    }

    @Test
    void shouldProbeTheSidecarsHealthOnItsMetricsPortWhichAnswersDownThenUp() throws Exception {
        Container sidecar = sidecar();
        Integer port = LayeredConfig.load(SIDECAR, Map.of(), resolved(sidecar), null).getInt(SidecarKeys.METRICS_PORT);
        assertThat(port).as("%s: without it the sidecar serves no /health", SidecarKeys.METRICS_PORT).isNotNull();
        assertThat(KubernetesManifestConsistencyTest.port(sidecar, "sidecar").getContainerPort()).isEqualTo(port);
        assertThat(sidecar.getStartupProbe()).as("the worker would wait for a sidecar that waits for the worker")
                .isNull();
        Probe readiness = sidecar.getReadinessProbe();
        Probe liveness = sidecar.getLivenessProbe();
        for (Probe probe : List.of(readiness, liveness)) {
            assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("sidecar");
            assertThat(probe.getHttpGet().getPath()).isEqualTo(MetricsServer.HEALTH_PATH);
        }
        long livenessSeconds = liveness.getInitialDelaySeconds() + (long) liveness.getPeriodSeconds()
                * liveness.getFailureThreshold();
        assertThat(livenessSeconds).as("never restarted while it starts within its start-up timeout")
                .isGreaterThan(SidecarConfig.DEFAULT_STARTUP_TIMEOUT.toSeconds());

        AtomicReference<SidecarHealth> health = new AtomicReference<>(SidecarHealth.down("starting"));
        try (SidecarMetrics metrics = new SidecarMetrics();
                MetricsServer server = MetricsServer.start(metrics, health::get, "127.0.0.1", 0)) {
            URI uri = URI.create("http://127.0.0.1:" + server.port() + readiness.getHttpGet().getPath());
            assertThat(get(uri).statusCode()).as("down while starting").isEqualTo(503);
            health.set(SidecarHealth.healthy());
            assertThat(get(uri).statusCode()).as("up once connected and running").isEqualTo(200);
        }
    }

    @Test
    void shouldReadTheJobsKeyFromAGeneratedSecretThatRotatesInPlaceAndIsNeverCommitted() {
        String keyFile = resolved(sidecar()).get(SIDECAR.envName(SidecarKeys.AUTH_KEY_FILE));
        Volume volume = set.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getSecret() != null).findFirst().orElseThrow();
        VolumeMount mount = sidecar().getVolumeMounts().stream().filter(m -> m.getName().equals(volume.getName()))
                .findFirst().orElseThrow();
        JsonNode generator = example.kustomization().path("secretGenerator").get(0);

        assertThat(mount.getReadOnly()).isTrue();
        assertThat(mount.getSubPath()).as("a subPath mount would never see a new key").isNull();
        assertThat(keyFile).startsWith(mount.getMountPath() + "/");
        assertThat(example.generatedSecretFiles()).containsEntry(volume.getSecret().getSecretName(),
                List.of("secrets/" + keyFile.substring(mount.getMountPath().length() + 1)));
        assertThat(generator.at("/options/disableNameSuffixHash").asBoolean())
                .as("the same Secret's file changes on a rotation, which the sidecar re-reads").isTrue();
        assertThat(worker().getVolumeMounts()).extracting(VolumeMount::getName).as("the worker never sees the key")
                .doesNotContain(volume.getName());
        PodSecurity.assertIgnoredByGit(EXAMPLE.resolve("secrets"));
    }

    private Container sidecar() {
        return set.getSpec().getTemplate().getSpec().getInitContainers().get(0);
    }

    private Container worker() {
        return set.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    /** A container's environment, a value taken from the pod's index as a pod would have it (0). */
    private static Map<String, String> resolved(Container container) {
        Map<String, String> env = new HashMap<>();
        container.getEnv().forEach(e -> env.put(e.getName(), e.getValue() != null ? e.getValue() : "0"));
        return env;
    }

    private static HttpResponse<String> get(URI uri) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
