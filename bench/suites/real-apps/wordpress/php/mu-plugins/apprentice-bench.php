<?php
/**
 * Plugin Name: Apprentice benchmark
 * Description: A browser on loopback is the administrator (user 1): the
 * benchmark starts logged in, with fresh cookies every attempt. The block
 * editor is switched off: posts and pages open in the classic editor.
 */
$apprentice_remote = $_SERVER['REMOTE_ADDR'] ?? '';
if (PHP_SAPI === 'cli-server' && in_array($apprentice_remote, ['127.0.0.1', '::1'], true) && !function_exists('wp_validate_auth_cookie')) {
    // Pluggable: WordPress defines it only when no plugin did.
    function wp_validate_auth_cookie($cookie = '', $scheme = '') {
        return 1;
    }
}
add_filter('use_block_editor_for_post', '__return_false', 100);
add_filter('use_block_editor_for_post_type', '__return_false', 100);
