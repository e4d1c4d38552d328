<?php
/**
 * The benchmark WordPress's settings, shared by the router (web requests) and
 * the seeding script (CLI). Debian's wp-config.php loads
 * /etc/wordpress/config-apprentice-bench.php (an empty stub the suite writes)
 * and keeps every constant defined here. The database is the suite's private
 * MariaDB, reached on the socket named by APPRENTICE_WP_SOCKET.
 */
$apprentice_socket = getenv('APPRENTICE_WP_SOCKET');
if ($apprentice_socket === false || $apprentice_socket === '') {
    error_log('apprentice bench: APPRENTICE_WP_SOCKET is not set');
    exit(1);
}
define('DB_NAME', 'wp_bench');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:' . $apprentice_socket);
define('DB_CHARSET', 'utf8mb4');
// The site answers on whatever loopback port the suite picked.
define('WP_HOME', 'http://' . ($_SERVER['HTTP_HOST'] ?? '127.0.0.1'));
define('WP_SITEURL', WP_HOME);
define('WPMU_PLUGIN_DIR', __DIR__ . '/mu-plugins');
// No network and no background work: every request does only what the page asks.
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_ALLOW_MULTISITE', false);
// Fixed keys: a loopback test site, never a real one.
foreach (['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'] as $apprentice_key) {
    define($apprentice_key, 'apprentice-bench-' . strtolower($apprentice_key));
}
$_SERVER['WORDPRESS_CONFIG'] = 'apprentice-bench';
