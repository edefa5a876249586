package dev.cairn.coordinator.app;

import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.serde.SchemaCatalog;
import dev.cairn.events.serde.SchemaPublisher;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The coordinator's side of the schemas topic ({@code <prefix>schemas}): at start it publishes the schemas it writes
 * (journal, control and completed records, and requests, which its REST API produces), and it decodes what sidecars
 * and users write ({@code cairn.acks}, {@code cairn.requests}) with a {@link SchemaCatalog} of the topic as fallback,
 * so that sidecars and tools of the next release can be upgraded before the coordinators.
 */
final class CoordinatorSchemas {

    /** The envelopes the coordinator writes. */
    static final List<Class<? extends SpecificRecord>> WRITTEN = List.of(JournalEnvelope.class,
            ControlEnvelope.class, RetainedCheckpoints.class, RestorePart.class, RequestEnvelope.class);

    private CoordinatorSchemas() {
    }

    /** Publishes {@link #WRITTEN}; a failure is a warning in the log. */
    static void publish(CoordinatorConfig config) {
        SchemaPublisher.publish(clientConfig(config, "cairn-coordinator-" + config.applicationId()),
                config.topics().schemas(), WRITTEN);
    }

    /** The catalog the input deserializers fall back on; it reads the topic only on a miss. */
    static SchemaCatalog catalog(CoordinatorConfig config) {
        return SchemaCatalog.fromTopic(clientConfig(config, "cairn-coordinator-" + config.applicationId()),
                config.topics().schemas());
    }

    /** The connection and security settings of the coordinator's clients. */
    private static Map<String, Object> clientConfig(CoordinatorConfig config, String clientId) {
        Map<String, Object> props = new HashMap<>(config.kafkaProperties());
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        return props;
    }
}
