/** {@code ourios keys}: create, list and revoke the API keys of {@code ourios serve}. */
package dev.ourios.cli.keys;
