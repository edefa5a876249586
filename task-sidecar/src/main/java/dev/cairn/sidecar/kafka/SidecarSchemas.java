package dev.cairn.sidecar.kafka;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.serde.SchemaCatalog;
import dev.cairn.events.serde.SchemaPublisher;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A sidecar's side of the schemas topic ({@code <prefix>schemas}): it publishes the schema of its acks, so that a
 * coordinator of an earlier release reads them, and it reads control and completed records with a
 * {@link SchemaCatalog} of the topic as fallback, so that a coordinator of a later release can be upgraded first.
 * A sidecar that may not write the topic (no ACL) only logs a warning.
 */
final class SidecarSchemas {

    /** How long the publication may take; start-up waits for it before it writes its first record. */
    static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(5);

    private SidecarSchemas() {
    }

    /**
     * Publishes the schema of {@link AckEnvelope} on a thread of its own.
     *
     * @return done when published or given up (a failure is a warning in the log); never failed
     */
    static CompletableFuture<Void> publish(RuntimeSettings settings) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                SchemaPublisher.publish(KafkaClients.producer(settings), settings.topics().schemas(),
                        List.of(AckEnvelope.class), PUBLISH_TIMEOUT);
            } finally {
                done.complete(null);
            }
        }, "cairn-sidecar-schemas-" + settings.name());
        thread.setDaemon(true);
        thread.start();
        return done;
    }

    /** The catalog of the schemas topic, read only on a miss. */
    static SchemaCatalog catalog(RuntimeSettings settings) {
        return SchemaCatalog.fromTopic(KafkaClients.consumer(settings, "schemas"), settings.topics().schemas());
    }
}
