package dev.cairn.demo.deploy;

import static dev.cairn.demo.deploy.KustomizeTree.DEPLOY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.config.ConfigSchema;
import dev.cairn.coordinator.app.CoordinatorKeys;
import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.metrics.MetricsHandler;
import dev.cairn.coordinator.rest.sources.HealthSource;
import dev.cairn.coordinator.testbed.NoJobs;
import dev.cairn.core.contract.InputLimits;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.Endpoint;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's kustomization ({@code deploy/kubernetes/base}) cannot be applied on the build machines (no
 * cluster, no kustomize). This reads every file it lists into Kubernetes' typed objects and keeps them consistent
 * with the code: every {@code CAIRN_*} variable is a key the coordinator reads; the ports are its default API and
 * probes ports; the probes ask a real REST server the paths that answer liveness and readiness, on the probes port;
 * the image is the one {@code coordinator-service/Dockerfile}'s build line tags; the pods run as the image's non-root
 * user on a read-only root file system, with volumes where the coordinator writes; each pod advertises its name under
 * the headless Service the StatefulSet names; the Secret the coordinator reads comes from the secretGenerator and is
 * never committed; a PodDisruptionBudget, a NetworkPolicy and a ServiceMonitor of {@code /metrics} go with it.
 */
class KubernetesManifestConsistencyTest {

    private static final Path BASE = DEPLOY.resolve("base");
    private static final ConfigSchema KEYS = CoordinatorKeys.SCHEMA;
    private final KustomizeTree base = KustomizeTree.read(BASE);

    @Test
    void shouldListOnlyFilesThatExistAndParseWhenResolvingEveryKustomization() {
        List<Path> kustomizations = KustomizeTree.all();

        assertThat(kustomizations).contains(BASE, DEPLOY.resolve("worker-example"));
        kustomizations.forEach(folder -> assertThat(KustomizeTree.read(folder).objects()).isNotEmpty());
        assertThat(base.objects()).extracting(o -> o.getKind() + "/" + o.getMetadata().getName()).containsOnly(
                "Service/cairn-coordinator-peers", "Service/cairn-coordinator", "StatefulSet/cairn-coordinator",
                "PodDisruptionBudget/cairn-coordinator", "NetworkPolicy/cairn-coordinator",
                "Service/cairn-coordinator-metrics", "ServiceMonitor/cairn-coordinator");
    }

    @Test
    void shouldSetOnlyVariablesTheCoordinatorReadsWhenItRunsThePods() {
        Map<String, String> env = KustomizeTree.literalEnvironment(coordinator());

        assertThat(env.keySet().stream().filter(name -> name.startsWith("CAIRN_")).toList()).isNotEmpty()
                .allSatisfy(name -> assertThat(KEYS.def().names().stream().map(KEYS::envName).toList())
                        .as("keys the coordinator reads (docs/configuration.md)").contains(name));
        assertThat(env).containsKeys("CAIRN_INSTANCE_ID", "CAIRN_ADVERTISED_HOST", "CAIRN_STATE_DIR",
                "CAIRN_HTTP_PORT", "CAIRN_HTTP_BIND_ADDRESS", "CAIRN_SIDECAR_MASTER_KEY_FILE");
    }

    @Test
    void shouldOpenTheCoordinatorsDefaultApiAndProbesPortsWhenDeclaringTheContainerPorts() {
        Container container = coordinator();
        Map<String, String> env = KustomizeTree.literalEnvironment(container);
        int api = port(container, "http").getContainerPort();
        int probes = port(container, "probes").getContainerPort();

        assertThat(api).as("the API's default port").isEqualTo(QueryServerConfig.DEFAULT_PORT)
                .isEqualTo(Integer.parseInt(env.get(KEYS.envName("http.port"))));
        assertThat(probes).isEqualTo(Integer.parseInt(env.get(KEYS.envName("http.probes.port")))).isNotEqualTo(api);
        assertThat(KEYS.def().configKeys().get("http.probes.port").documentation)
                .as("the probes port's default, http.port + its offset").contains("http.port + " + (probes - api));
        assertThat(env.get(KEYS.envName("http.bind.address"))).as("an address the kubelet reaches, not loopback")
                .isEqualTo("0.0.0.0");
    }

    @Test
    void shouldProbeTheLivenessAndReadinessPathsOnTheProbesPortWhenTheCoordinatorServesThem() throws Exception {
        Container container = coordinator();
        for (var probe : List.of(container.getStartupProbe(), container.getLivenessProbe(),
                container.getReadinessProbe())) {
            assertThat(probe.getHttpGet().getPort().getStrVal()).as("the probes port, not the API's")
                    .isEqualTo("probes");
        }

        try (QueryServer server = QueryServer.bind(QueryServerConfig.of("127.0.0.1", 0, "127.0.0.1")
                .withProbesPort(0))) {
            server.start(new NoJobs(), new AliveButNotReady(), (jobId, request) -> {
                throw new UnsupportedOperationException("no requests in this test");
            }, InputLimits.DEFAULTS, UnaryOperator.identity());
            URI probes = URI.create("http://127.0.0.1:" + server.probesPort());
            assertThat(get(probes, container.getStartupProbe().getHttpGet().getPath()).statusCode()).isEqualTo(200);
            HttpResponse<String> liveness = get(probes, container.getLivenessProbe().getHttpGet().getPath());
            assertThat(liveness.statusCode()).as("liveness while alive but not ready").isEqualTo(200);
            assertThat(liveness.body()).isEqualTo("{\"status\":\"UP\"}");
            HttpResponse<String> readiness = get(probes, container.getReadinessProbe().getHttpGet().getPath());
            assertThat(readiness.statusCode()).as("readiness while alive but not ready").isEqualTo(503);
            assertThat(readiness.body()).contains("\"status\":\"DOWN\"", AliveButNotReady.REASON);
        }
    }

    @Test
    void shouldRunTheImageTheDockerfileTagsAsItsUserOnAReadOnlyRootWithVolumesWhereItWrites() {
        StatefulSet set = base.get(StatefulSet.class, "cairn-coordinator");
        Container container = coordinator();
        Dockerfile dockerfile = Dockerfile.of("coordinator-service");

        assertThat(container.getImage()).isEqualTo(dockerfile.image());
        assertThat(container.getCommand()).as("the Dockerfile's ENTRYPOINT runs the coordinator").isEmpty();
        assertThat(container.getArgs()).isEmpty();
        PodSecurity.assertRestricted(set, Dockerfile.USER);
        Map<String, VolumeMount> mounts = PodSecurity.mounts(container);
        String stateDir = KustomizeTree.literalEnvironment(container).get(KEYS.envName("state.dir"));
        assertThat(dockerfile.text()).contains("VOLUME " + stateDir);
        assertThat(mounts).as("writable: the state directory and the JVM's /tmp").containsKeys(stateDir, "/tmp");
        assertThat(mounts.get(stateDir).getName()).isEqualTo("state");
        assertThat(set.getSpec().getVolumeClaimTemplates()).extracting(c -> c.getMetadata().getName())
                .containsExactly("state");
    }

    @Test
    void shouldReadTheKeysTokensAndKafkaSettingsFromTheGeneratedSecretWhichIsNeverCommitted() throws Exception {
        Container container = coordinator();
        Map<String, String> env = KustomizeTree.literalEnvironment(container);
        StatefulSet set = base.get(StatefulSet.class, "cairn-coordinator");
        Map<String, List<String>> generated = base.generatedSecretFiles();

        assertThat(generated).containsOnlyKeys("cairn-coordinator");
        var volume = set.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getSecret() != null).findFirst().orElseThrow();
        assertThat(volume.getSecret().getSecretName()).isEqualTo("cairn-coordinator");
        VolumeMount mount = container.getVolumeMounts().stream().filter(m -> m.getName().equals(volume.getName()))
                .findFirst().orElseThrow();
        assertThat(mount.getReadOnly()).isTrue();
        for (String key : List.of("sidecar.master.key.file", "http.tokens.file", "kafka.config")) {
            String file = env.get(KEYS.envName(key));
            assertThat(file).as(key).startsWith(mount.getMountPath() + "/");
            String name = file.substring(mount.getMountPath().length() + 1);
            assertThat(generated.get("cairn-coordinator")).as("the generator's file for %s", key)
                    .contains("secrets/" + name);
        }
        PodSecurity.assertIgnoredByGit(BASE.resolve("secrets"));
    }

    @Test
    void shouldAdvertiseEachPodUnderTheHeadlessServiceWhenTheStatefulSetNamesIt() {
        StatefulSet set = base.get(StatefulSet.class, "cairn-coordinator");
        String serviceName = set.getSpec().getServiceName();
        Container container = coordinator();
        Map<String, String> env = KustomizeTree.literalEnvironment(container);

        assertThat(env.get("CAIRN_INSTANCE_ID")).isEqualTo("$(POD_NAME)");
        assertThat(env.get("CAIRN_ADVERTISED_HOST")).isEqualTo("$(POD_NAME)." + serviceName);
        assertThat(container.getEnv().get(0).getName()).as("POD_NAME is defined before it is used")
                .isEqualTo("POD_NAME");
        assertThat(container.getEnv().get(0).getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
        Service peers = base.get(Service.class, serviceName);
        assertThat(peers.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(peers.getSpec().getPublishNotReadyAddresses())
                .as("instances restoring their stores are still reached by the others").isTrue();
        assertThat(set.getSpec().getTemplate().getMetadata().getLabels()).isEqualTo(peers.getSpec().getSelector());
        assertThat(base.get(Service.class, "cairn-coordinator").getSpec().getPorts())
                .extracting(p -> p.getTargetPort().getStrVal()).as("clients reach the API's port only")
                .containsExactly("http");
    }

    @Test
    void shouldKeepAllButOneInstanceUpWhenTheClusterEvictsPods() {
        StatefulSet set = base.get(StatefulSet.class, "cairn-coordinator");
        PodDisruptionBudget budget = base.get(PodDisruptionBudget.class, "cairn-coordinator");

        assertThat(budget.getSpec().getSelector().getMatchLabels())
                .isEqualTo(set.getSpec().getTemplate().getMetadata().getLabels());
        assertThat(budget.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1)
                .isLessThan(set.getSpec().getReplicas());
        assertThat(KustomizeTree.literalEnvironment(coordinator()).get(KEYS.envName("standby.replicas")))
                .as("a warm copy takes over the jobs of the instance evicted").isEqualTo("1");
    }

    @Test
    void shouldLetOnlyTheInstancesAndLabelledClientsReachTheApiAndOnlyTheScraperReachTheProbesPort() {
        NetworkPolicy policy = base.get(NetworkPolicy.class, "cairn-coordinator");
        StatefulSet set = base.get(StatefulSet.class, "cairn-coordinator");

        assertThat(policy.getSpec().getPodSelector().getMatchLabels())
                .isEqualTo(set.getSpec().getTemplate().getMetadata().getLabels());
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
        List<NetworkPolicyIngressRule> rules = policy.getSpec().getIngress();
        assertThat(rules).hasSize(2).allSatisfy(rule -> {
            assertThat(rule.getFrom()).as("every rule names its sources: none is open to all").isNotEmpty();
            assertThat(rule.getPorts()).hasSize(1);
        });
        NetworkPolicyIngressRule api = rules.get(0);
        assertThat(api.getPorts().get(0).getPort().getStrVal()).isEqualTo("http");
        assertThat(api.getFrom().get(0).getPodSelector().getMatchLabels())
                .as("the other instances, which forward REST calls").isEqualTo(policy.getSpec().getPodSelector()
                        .getMatchLabels());
        assertThat(api.getFrom().get(1).getPodSelector().getMatchLabels()).containsEntry("cairn-client", "true");
        NetworkPolicyIngressRule probes = rules.get(1);
        assertThat(probes.getPorts().get(0).getPort().getStrVal()).isEqualTo("probes");
        assertThat(probes.getFrom()).singleElement().satisfies(peer -> {
            assertThat(peer.getNamespaceSelector().getMatchLabels()).as("the scraper's namespace only").isNotEmpty();
            assertThat(peer.getPodSelector()).isNull();
        });
    }

    @Test
    void shouldScrapeMetricsOnTheProbesPortOfEveryInstanceWhenTheServiceMonitorSelectsIt() {
        ServiceMonitor monitor = base.get(ServiceMonitor.class, "cairn-coordinator");
        Service metrics = base.get(Service.class, "cairn-coordinator-metrics");
        StatefulSet set = base.get(StatefulSet.class, "cairn-coordinator");

        assertThat(monitor.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(metrics.getMetadata().getLabels()).containsAllEntriesOf(monitor.getSpec().getSelector()
                .getMatchLabels());
        assertThat(metrics.getSpec().getSelector()).isEqualTo(set.getSpec().getTemplate().getMetadata().getLabels());
        Endpoint endpoint = monitor.getSpec().getEndpoints().get(0);
        assertThat(endpoint.getPath()).isEqualTo(MetricsHandler.PATH).isEqualTo("/metrics");
        var port = metrics.getSpec().getPorts().stream().filter(p -> p.getName().equals(endpoint.getPort()))
                .findFirst().orElseThrow();
        assertThat(port.getTargetPort().getStrVal()).isEqualTo("probes");
        assertThat(port.getPort()).isEqualTo(port(coordinator(), "probes").getContainerPort());
    }

    private Container coordinator() {
        List<Container> containers = KustomizeTree.containers(base.get(StatefulSet.class, "cairn-coordinator"));
        assertThat(containers).as("the StatefulSet's containers").hasSize(1);
        return containers.get(0);
    }

    static ContainerPort port(Container container, String name) {
        return container.getPorts().stream().filter(p -> p.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no port " + name + " in " + container.getName()));
    }

    private static HttpResponse<String> get(URI base, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** An instance whose Kafka Streams runs but has not restored its stores yet. */
    private static final class AliveButNotReady implements HealthSource {

        static final String REASON = "restoring the stores of partition 0";

        @Override
        public Health liveness() {
            return Health.up();
        }

        @Override
        public Health readiness() {
            return Health.down(REASON);
        }
    }
}
