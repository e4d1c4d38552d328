/** Side panel: stays open beside the page; follows the active tab unless `?tabId=N` pins one. */
import '../styles.css';
import { mountApp } from '../app/mount.tsx';

mountApp('sidepanel');
