package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.contract.InputLimits;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class CoordinatorAppTest {

    private static final CoordinatorConfig LOCAL =
            CoordinatorConfig.forLocalBroker("127.0.0.1:9092", "cairn-test", Path.of("/tmp/cairn-test"));
    /** The default failover settings with static membership as instance {@code host-a}. */
    private static final CoordinatorConfig.Failover HOST_A =
            CoordinatorKeys.failover(CoordinatorKeys.SCHEMA.def().parse(Map.of()), "host-a");

    @Test
    void shouldPassTheFailoverSettingsToKafkaStreams() {
        Properties props = CoordinatorApp.streamsProperties(new CoordinatorConfig(LOCAL.bootstrapServers(),
                LOCAL.applicationId(), LOCAL.topics(), LOCAL.partitions(), LOCAL.replicationFactor(), LOCAL.stateDir(),
                LOCAL.tickInterval(), LOCAL.commitInterval(), Map.of(), null, HOST_A, null, false,
                InputLimits.DEFAULTS, (short) 1,
                CoordinatorConfig.DEFAULT_SNAPSHOT_INTERVAL, null, null));

        assertThat(props).containsEntry("main.consumer.group.instance.id", "host-a")
                .containsEntry("session.timeout.ms", "6000")
                .containsEntry("heartbeat.interval.ms", "1500")
                .containsEntry("num.standby.replicas", "1")
                .containsEntry("acceptable.recovery.lag", Long.toString(Long.MAX_VALUE))
                .containsEntry("probing.rebalance.interval.ms", "60000")
                .containsEntry("transaction.timeout.ms", "5000");
    }

    @Test
    void shouldUseDynamicMembershipWithoutAnInstanceId() {
        assertThat(CoordinatorApp.streamsProperties(LOCAL).stringPropertyNames())
                .noneMatch(key -> key.endsWith("group.instance.id"));
    }

    @Test
    void shouldLetTheKafkaConfigFileOverrideTheFailoverSettings() {
        CoordinatorConfig config = new CoordinatorConfig(LOCAL.bootstrapServers(), LOCAL.applicationId(),
                LOCAL.topics(), LOCAL.partitions(), LOCAL.replicationFactor(), LOCAL.stateDir(), LOCAL.tickInterval(),
                LOCAL.commitInterval(), Map.of("session.timeout.ms", "45000", "consumer.group.instance.id", "mine",
                        "num.standby.replicas", "0"), null,
                HOST_A, null, false, InputLimits.DEFAULTS, (short) 1,
                CoordinatorConfig.DEFAULT_SNAPSHOT_INTERVAL, null, null);

        Properties props = CoordinatorApp.streamsProperties(config);

        assertThat(props).containsEntry("session.timeout.ms", "45000")
                .containsEntry("consumer.group.instance.id", "mine")
                .containsEntry("num.standby.replicas", "0")
                .doesNotContainKey("main.consumer.group.instance.id");
    }
}
