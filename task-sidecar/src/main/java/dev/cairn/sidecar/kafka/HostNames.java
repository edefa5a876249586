package dev.cairn.sidecar.kafka;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host a task sidecar's {@code TaskStarted} names, which the coordinator shows beside a subtask that has not
 * acknowledged a pending checkpoint: the configured {@code host}, else this machine's name, taken from the
 * {@code HOSTNAME} environment variable (a Kubernetes pod's name, a container's id), else from
 * {@link InetAddress#getLocalHost()}. A name the coordinator would refuse (blank, white space or control characters,
 * longer than {@value #MAX_LENGTH} characters) is never sent: a configured one is refused at start, a machine name
 * is left out with a warning.
 */
public final class HostNames {

    /** The longest host the coordinator accepts: its default limit of an id. */
    public static final int MAX_LENGTH = 256;

    private static final Logger LOG = LoggerFactory.getLogger(HostNames.class);

    private HostNames() {
    }

    /** What is wrong with {@code name} as a host to announce, or {@code null} when nothing is. */
    public static String problem(String name) {
        if (name == null || name.isBlank()) {
            return "is empty";
        }
        if (name.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            return "contains white space or a control character";
        }
        return name.length() > MAX_LENGTH ? "is " + name.length() + " characters long, more than " + MAX_LENGTH : null;
    }

    /** {@code configured} when set, else this machine's name ({@link #local}); {@code null} when there is none. */
    public static String orLocal(String configured) {
        return configured != null ? configured : local(System.getenv(), HostNames::machineName);
    }

    /**
     * This machine's name: {@code HOSTNAME} of {@code environment} when it is a valid host, else what
     * {@code machine} answers when valid, else {@code null}.
     */
    static String local(Map<String, String> environment, Supplier<String> machine) {
        String variable = environment.get("HOSTNAME");
        if (variable != null && problem(variable) == null) {
            return variable;
        }
        String name = machine.get();
        if (name != null && problem(name) == null) {
            return name;
        }
        LOG.warn("The attempt's TaskStarted names no host: HOSTNAME is {} and the machine's name {}; set host to "
                + "name one", variable == null ? "not set" : "'" + shown(variable) + "'",
                name == null ? "is unknown" : "'" + shown(name) + "' " + problem(name));
        return null;
    }

    private static String machineName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException | SecurityException e) {
            return null;
        }
    }

    /** {@code text} as a message may quote it: control characters as '?', at most 80 characters. */
    public static String shown(String text) {
        String shown = text.replaceAll("\\p{Cntrl}", "?");
        return shown.length() > 80 ? shown.substring(0, 80) + "..." : shown;
    }
}
