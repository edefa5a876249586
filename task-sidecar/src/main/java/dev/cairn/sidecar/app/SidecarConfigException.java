package dev.cairn.sidecar.app;

/** A missing or invalid sidecar setting; the message names the setting and what is wrong with it. */
public class SidecarConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String setting;

    public SidecarConfigException(String setting, String message) {
        super(message);
        this.setting = setting;
    }

    public SidecarConfigException(String setting, String message, Throwable cause) {
        super(message, cause);
        this.setting = setting;
    }

    /** The setting's key, e.g. {@code job.id}. */
    public String setting() {
        return setting;
    }
}
