export { DashboardIntro } from './components/DashboardIntro';
