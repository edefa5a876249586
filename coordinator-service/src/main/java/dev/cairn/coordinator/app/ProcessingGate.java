package dev.cairn.coordinator.app;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts an instance's processing once it may: after taking over the input positions of earlier applications on
 * the same topics when this application has none ({@link InputTakeover}), and only while no member of the
 * application writes another store layout ({@link LayoutGuard}). While such members remain, it checks again every
 * {@link #RECHECK_MS} ms on a thread of its own and logs why it waits; the REST API and probes run meanwhile (not
 * ready: nothing is assigned).
 */
final class ProcessingGate {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessingGate.class);
    static final long RECHECK_MS = 2_000;

    private final KafkaStreams streams;
    private final Object lock = new Object();
    private boolean closed;

    ProcessingGate(KafkaStreams streams) {
        this.streams = streams;
    }

    /** Starts processing now, or once the members of another layout have left. */
    void open(CoordinatorConfig config, Map<String, Object> adminConfig) {
        String group = config.applicationId();
        try (Admin admin = Admin.create(adminConfig)) {
            InputTakeover.takeOver(admin, group, config.topics());
            List<String> others = LayoutGuard.otherLayouts(admin, group);
            if (others.isEmpty()) {
                startUnlessClosed();
                return;
            }
            LOG.warn("Application {} has members of another store layout than this release's: {}. This instance "
                    + "starts processing once they have left: stop the instances of the other release "
                    + "(docs/upgrading.md)", group, others);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Thread waiter = new Thread(() -> awaitOthersLeaving(group, adminConfig), "cairn-layout-gate");
        waiter.setDaemon(true);
        waiter.start();
    }

    private void awaitOthersLeaving(String group, Map<String, Object> adminConfig) {
        try (Admin admin = Admin.create(adminConfig)) {
            while (!isClosed()) {
                Thread.sleep(RECHECK_MS);
                List<String> others = LayoutGuard.otherLayouts(admin, group);
                if (others.isEmpty()) {
                    LOG.info("No member of application {} writes another store layout any more: processing starts",
                            group);
                    startUnlessClosed();
                    return;
                }
                LOG.info("Waiting for members of another store layout to leave application {}: {}", group, others);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("Cannot tell whether members of another store layout left application {}; processing does "
                    + "not start: {}", group, e.toString(), e);
        }
    }

    private boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    private void startUnlessClosed() {
        synchronized (lock) {
            if (!closed) {
                streams.start();
            }
        }
    }

    /** Processing never starts after this; the caller closes the Kafka Streams instance. */
    void close() {
        synchronized (lock) {
            closed = true;
        }
    }
}
